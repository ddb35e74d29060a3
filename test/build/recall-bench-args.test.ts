import { describe, expect, it } from 'vitest';
import { parseRecallArgs } from '../../scripts/bench/recall.ts';
import { score } from '../../scripts/bench/recall-report.ts';
import { setSourceOf } from '../../scripts/bench/recall-sets.ts';
import { parseRealtalkDate, readRealtalk } from '../../scripts/bench/recall-realtalk.ts';

describe('npm run bench -- recall: flags', () => {
  it('reads the committed set by default, over both splits and every mode', () => {
    const options = parseRecallArgs(['recall']);
    expect(options.seed).toBeNull();
    expect(options.locomo).toBeNull();
    expect(options.splits).toEqual(['dev', 'heldout']);
    expect(options.modes).toEqual(['default', 'bm25', 'vector', 'hybrid', 'hybrid_graph']);
    expect(options.set).toBe('conversations');
    expect(setSourceOf(options)).toEqual({ kind: 'committed' });
  });

  it('takes --set for the real-chat set or its tidy twin, with its own seed unless --seed', () => {
    expect(setSourceOf(parseRecallArgs(['--set', 'real-chat']))).toEqual({
      kind: 'real-chat',
      seed: 20261128,
      tidy: false,
    });
    expect(setSourceOf(parseRecallArgs(['--set', 'real-chat-tidy', '--seed', '7']))).toEqual({
      kind: 'real-chat',
      seed: 7,
      tidy: true,
    });
    expect(setSourceOf(parseRecallArgs(['--seed', '7']))).toEqual({ kind: 'seed', seed: 7 });
    expect(() => parseRecallArgs(['--set', 'whatsapp'])).toThrow(/--set must be/);
    expect(() =>
      setSourceOf(parseRecallArgs(['--set', 'real-chat', '--locomo', 'x.json'])),
    ).toThrow(/two different sets/);
  });

  it('takes --seed for a set generated in memory, a 32-bit unsigned integer only', () => {
    expect(parseRecallArgs(['--seed', '777']).seed).toBe(777);
    expect(parseRecallArgs(['--seed', '4294967295']).seed).toBe(4_294_967_295);
    for (const bad of ['-1', '1.5', 'abc', '4294967296'])
      expect(() => parseRecallArgs(['--seed', bad])).toThrow(/--seed needs an integer/);
  });

  it('narrows splits and modes, and refuses what it does not know', () => {
    const options = parseRecallArgs(['--split', 'heldout', '--modes', 'bm25,hybrid']);
    expect(options.splits).toEqual(['heldout']);
    expect(options.modes).toEqual(['bm25', 'hybrid']);
    expect(() => parseRecallArgs(['--modes', 'bm25,fuzzy'])).toThrow(/unknown mode fuzzy/);
    expect(() => parseRecallArgs(['--frobnicate'])).toThrow(/unexpected argument/);
  });
});

describe('npm run bench -- recall: recall both ways', () => {
  // One question of one gold turn found, one of four gold turns with one found: per question
  // (1 + 1/4) / 2 = 0.625, per gold turn 2 / 5 = 0.4, the lower when wide questions are missed.
  const questions = [
    { id: 'a', conversation_id: 'c', kind: 'fact', question: '?', evidence: ['t1'] },
    {
      id: 'b',
      conversation_id: 'c',
      kind: 'gathering',
      question: '?',
      evidence: ['t2', 't3', 't4', 't5'],
    },
  ];
  const ranked = new Map([
    ['a', ['t1', 'x']],
    ['b', ['x', 'y', 'z', 'w', 'v', 't3']],
  ]);

  it('averages per question and sums per gold turn', () => {
    const s = score(questions, ranked);
    expect(s.recall_at_10).toBeCloseTo(0.625);
    expect(s.recall_at_10_gold).toBeCloseTo(0.4);
    expect(s.gold_turns).toBe(5);
    // At k = 5 the gathering question's hit (rank 6) is out: per q 0.5, per gold 1/5.
    expect(s.recall_at_5).toBeCloseTo(0.5);
    expect(s.recall_at_5_gold).toBeCloseTo(0.2);
    expect(s.mrr).toBeCloseTo((1 + 1 / 6) / 2);
  });
});

describe('npm run bench -- recall --realtalk: people’s chat read as a set', () => {
  it('takes --realtalk as an outside check of its own, held-out only', () => {
    const options = parseRecallArgs(['--realtalk', '/data/realtalk']);
    expect(options.splits).toEqual(['heldout']);
    expect(setSourceOf(options)).toEqual({ kind: 'realtalk', path: '/data/realtalk' });
    expect(() => setSourceOf(parseRecallArgs(['--realtalk', 'a', '--seed', '3']))).toThrow(
      /two different sets/,
    );
    expect(() => setSourceOf(parseRecallArgs(['--realtalk', 'a', '--locomo', 'b']))).toThrow(
      /two different sets/,
    );
  });

  it('reads day-first timestamps', () => {
    expect(parseRealtalkDate('03.02.2024, 21:15:07')).toBe('2024-02-03T21:15:07.000Z');
    expect(parseRealtalkDate('yesterday')).toBeNull();
  });

  it('reads messages with their own times, photos by caption, and kinds and traits of questions', () => {
    const message = (session: number, i: number, speaker: string, text: string, at: string) => ({
      clean_text: text,
      speaker,
      date_time: at,
      dia_id: `D${session}:${i}`,
    });
    const { conversation, questions } = readRealtalk('rt1', {
      name: { speaker_1: 'Emi', speaker_2: 'Elise' },
      session_1: [
        message(1, 1, 'Emi', 'hey sam', '03.02.2024, 20:01:00'),
        message(1, 2, 'Elise', 'had a great night watching the boxing', '03.02.2024, 20:02:10'),
        { ...message(1, 3, 'Elise', '', '03.02.2024, 20:03:00'), blip_caption: 'a dog on a sofa' },
      ],
      session_1_date_time: '03.02.2024, 20:01:00',
      session_2: [message(2, 1, 'Elise', 'judo was brutal', '05.02.2024, 09:00:00')],
      session_2_date_time: '05.02.2024, 09:00:00',
      qa: [
        { question: 'What did Sam watch on 03.02.2024?', evidence: ['D1:2'], category: 2 },
        { question: 'What does Sam do?', evidence: ['D1:2', 'D1:3', 'D2:1'], category: 1 },
        { question: 'Unanswerable?', evidence: ['D9:9'], category: 1 },
      ],
    });
    expect(conversation.speakers).toEqual(['Emi', 'Elise']);
    expect(conversation.sessions.map((s) => s.id)).toEqual(['rt1-s1', 'rt1-s2']);
    expect(conversation.turns.map((t) => [t.id, t.said_at, t.text])).toEqual([
      ['rt1:D1:1', '2024-02-03T20:01:00.000Z', 'hey sam'],
      ['rt1:D1:2', '2024-02-03T20:02:10.000Z', 'had a great night watching the boxing'],
      ['rt1:D1:3', '2024-02-03T20:03:00.000Z', '[image: a dog on a sofa]'],
      ['rt1:D2:1', '2024-02-05T09:00:00.000Z', 'judo was brutal'],
    ]);
    // A question whose evidence is not in the conversation is left out.
    expect(questions.map((q) => [q.kind, q.evidence.length, q.traits])).toEqual([
      ['date', 1, []],
      ['fact', 3, ['gathering', 'photo']],
    ]);
  });
});
