import { describe, expect, it } from 'vitest';
import { dampRepeats, repeatKey } from '../../../functions/memory/retrieval/repeats.ts';
import { call, json, setup } from './helpers.ts';

interface Hit {
  id: string;
  content: string;
}

describe('repeated texts in a result list', () => {
  it('are recognised without speaker, case or punctuation', () => {
    expect(repeatKey('Leo: Hey! Busy but good. Yours?')).toBe(
      repeatKey('Aisha: hey, busy but good… yours'),
    );
    expect(repeatKey('Leo: Busy but good.')).not.toBe(repeatKey('Leo: Busy, not good.'));
  });

  it('keep their order but each copy after the first keeps half its score', () => {
    const content = new Map([
      [1, 'Leo: Hey! Busy but good.'],
      [2, 'Aisha: Hey! Busy but good.'],
      [3, 'Aisha: The audit starts Monday.'],
      [4, 'Leo: hey, busy but good'],
    ]);
    const out = dampRepeats(
      [
        { seq: 1, score: 1 },
        { seq: 2, score: 0.9 },
        { seq: 3, score: 0.6 },
        { seq: 4, score: 0.5 },
        { seq: 5, score: 0.4 },
      ],
      (seq) => content.get(seq) ?? null,
    );
    expect(out).toEqual([
      { seq: 1, score: 1 },
      { seq: 3, score: 0.6 },
      { seq: 2, score: 0.45 },
      { seq: 5, score: 0.4 },
      { seq: 4, score: 0.125 },
    ]);
  });

  it('give a different memory the place a second copy would have taken (hybrid and hybrid_graph)', async () => {
    const { ctx, key } = await setup();
    const turns = [
      'Leo: Work is busy but good.',
      'Aisha: Work is busy but good.',
      'Leo: Work is busy but good.',
      'Aisha: Work is busy but good.',
      'Aisha: Busy week: the quarterly audit at the insurer starts Monday and I lead it.',
      'Leo: The weather is lovely today.',
      'Aisha: Made a lasagne and ate half of it standing up.',
      'Leo: The bus was late again.',
    ];
    const res = await call('POST', `/api/v1/${ctx}/facts/batch`, {
      key,
      body: {
        facts: turns.map((content, position) => ({
          content,
          session: `s${position}`,
          position: 0,
          valid_from: `2023-05-0${position + 1}T18:00:00Z`,
        })),
      },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    for (const mode of ['hybrid', 'hybrid_graph']) {
      const found = await call('POST', `/api/v1/${ctx}/query`, {
        key,
        body: { query: 'How is work going for Aisha, is she busy?', mode, k: 2 },
      });
      expect(found.status).toBe(200);
      const hits = (await json<{ results: Hit[] }>(found)).results.map((h) => h.content);
      expect(hits, mode).toHaveLength(2);
      expect(new Set(hits.map(repeatKey)).size, `${mode}: ${hits.join(' | ')}`).toBe(2);
      expect(hits, mode).toContain(turns[4]);
    }
  });
});
