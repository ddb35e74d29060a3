import { describe, expect, it } from 'vitest';
import { call, expectProblem, issueKey, json, setup, writeFact } from './helpers.ts';

// POST /{ctx}/query with "explain": true: what each arm contributed to each result's score, from
// the server's own fusion. Without the flag the answer is byte for byte what it was.

interface Share {
  rank: number | null;
  score: number | null;
  weight: number;
  contribution: number;
}
interface Hit {
  id: string;
  content: string;
  score: number;
  ranks?: { bm25: number | null; vector: number | null; graph?: number | null };
  explain?: { arms: Record<string, Share>; fused: number };
}

const FACTS = [
  'Alice moved to Lisbon in March to lead the design team.',
  'The Lisbon office opened in 2021 near the river.',
  'Bob prefers tea over coffee in the morning.',
  'Alice and Bob planned the offsite in Lisbon together.',
  'Quarterly planning happens in the first week of April.',
];

async function seeded(): Promise<{ ctx: string; key: string }> {
  const { ctx, key } = await setup();
  for (const content of FACTS) await writeFact(ctx, key, content);
  return { ctx, key };
}

async function ask(ctx: string, key: string, body: Record<string, unknown>): Promise<string> {
  const res = await call('POST', `/api/v1/${ctx}/query`, { key, body });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return text;
}

describe('POST /query explain', () => {
  it('leaves the default answer byte-identical (absent, false, and true less explain)', async () => {
    const { ctx, key } = await seeded();
    for (const mode of ['bm25', 'vector', 'hybrid', 'hybrid_graph']) {
      const body = { query: 'Where did Alice move?', mode };
      const plain = await ask(ctx, key, body);
      expect(plain).not.toContain('"explain"');
      expect(await ask(ctx, key, { ...body, explain: false })).toBe(plain);
      const explained = JSON.parse(await ask(ctx, key, { ...body, explain: true })) as {
        results: Hit[];
      };
      for (const hit of explained.results) delete hit.explain;
      expect(JSON.stringify(explained)).toBe(plain);
    }
  });

  it('gives each fused result its arms, their shares and a fused score that adds up', async () => {
    const { ctx, key } = await seeded();
    for (const mode of ['hybrid', 'hybrid_graph']) {
      const answer = await json<{ results: Hit[] }>(
        await call('POST', `/api/v1/${ctx}/query`, {
          key,
          body: { query: 'Where did Alice move?', mode, explain: true },
        }),
      );
      expect(answer.results.length).toBeGreaterThan(0);
      const top = answer.results[0];
      expect(top?.content).toContain('Alice moved to Lisbon');
      for (const hit of answer.results) {
        const explain = hit.explain;
        if (!explain) throw new Error(`${mode}: no explanation`);
        const arms = Object.keys(explain.arms);
        expect(arms).toContain('bm25');
        expect(arms).toContain('vector');
        if (mode === 'hybrid_graph') expect(arms).toContain('graph');
        else expect(arms).not.toContain('graph');
        const shares = Object.values(explain.arms);
        const weights = shares.reduce((sum, s) => sum + s.weight, 0);
        expect(weights).toBeCloseTo(1, 10);
        const sum = shares.reduce((total, s) => total + s.contribution, 0);
        expect(explain.fused).toBeCloseTo(sum, 12);
        // The arms' ranks are the ones `ranks` reports.
        expect(explain.arms.bm25?.rank ?? null).toBe(hit.ranks?.bm25 ?? null);
        expect(explain.arms.vector?.rank ?? null).toBe(hit.ranks?.vector ?? null);
        if (mode === 'hybrid_graph')
          expect(explain.arms.graph?.rank ?? null).toBe(hit.ranks?.graph ?? null);
        for (const share of shares) {
          if (share.rank === null) expect(share.contribution).toBe(0);
          expect(share.contribution).toBeLessThanOrEqual(share.weight + 1e-12);
        }
      }
    }
  });

  it('explains a one-arm mode by its own score', async () => {
    const { ctx, key } = await seeded();
    const answer = await json<{ results: Hit[] }>(
      await call('POST', `/api/v1/${ctx}/query`, {
        key,
        body: { query: 'Lisbon office', mode: 'bm25', explain: true },
      }),
    );
    answer.results.forEach((hit, i) => {
      expect(hit.explain).toEqual({
        arms: { bm25: { rank: i + 1, score: hit.score, weight: 1, contribution: hit.score } },
        fused: hit.score,
      });
    });
  });

  it('refuses a flag that is not a boolean', async () => {
    const { ctx, key } = await setup();
    for (const explain of ['yes', 1, null])
      await expectProblem(
        await call('POST', `/api/v1/${ctx}/query`, { key, body: { query: 'x', explain } }),
        400,
        'validation-error',
      );
  });

  it("adds nothing of another team's memory to a scoped key's answer", async () => {
    const { ctx, key: root } = await setup();
    await writeFact(ctx, root, 'Sales target for Lisbon is twelve deals.', ['team:sales']);
    await writeFact(ctx, root, 'Eng runs the Lisbon cluster on weekends.', ['team:eng']);
    const eng = await issueKey(ctx, { 'memory:read': ['team:eng'] });
    for (const mode of ['bm25', 'hybrid', 'hybrid_graph']) {
      const body = { query: 'What about Lisbon?', mode };
      const plain = await ask(ctx, eng, body);
      const explained = await ask(ctx, eng, { ...body, explain: true });
      expect(explained).not.toContain('Sales');
      expect(explained).not.toContain('team:sales');
      const ids = (text: string) =>
        (JSON.parse(text) as { results: Hit[] }).results.map((h) => h.id);
      expect(ids(explained)).toEqual(ids(plain));
      expect(ids(plain).length).toBe(1);
    }
  });
});
