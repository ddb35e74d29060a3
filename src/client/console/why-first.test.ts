import { describe, expect, it } from 'vitest';
import { contentWords, explainTop, type ModeResult } from './why-first.ts';

const alice = { id: 'a', content: 'Alice leads the Platform team in Berlin', score: 0.9 };
const bob = { id: 'b', content: 'Bob joined sales', score: 0.4 };

describe('explainTop', () => {
  it('explains the default mode’s top result by its arms, words, other modes and the block', () => {
    const lists: ModeResult[] = [
      { mode: 'bm25', results: [bob, alice] },
      { mode: 'vector', results: [alice] },
      {
        mode: 'hybrid_graph',
        results: [
          { ...alice, ranks: { bm25: 2, vector: 1, graph: null } },
          { ...bob, ranks: { bm25: 1, vector: null, graph: 3 } },
        ],
      },
    ];
    const why = explainTop('Where is the Platform team based?', lists, ['x', 'a']);
    expect(why?.top.id).toBe('a');
    expect(why?.reasons).toEqual([
      'Score 0.900 in hybrid_graph, ahead of the second by 0.500.',
      'bm25 arm (words): rank 2',
      'vector arm (meaning): rank 1',
      'graph arm (entities): not reached by the walk',
      'Shares with the question: platform, team.',
      'Other modes: bm25 #2, vector #1.',
      'POST /context puts it in the block as item 2 of 2.',
    ]);
  });

  it('uses the server’s per-arm explanation when the answer carries one', () => {
    const explain = {
      arms: {
        bm25: { rank: 2, score: 7.5, weight: 0.25, contribution: 0.2 },
        vector: { rank: 1, score: 0.81, weight: 0.25, contribution: 0.25 },
        soft: { rank: null, score: null, weight: 0.4, contribution: 0 },
        graph: { rank: 4, score: 0.01, weight: 0.1, contribution: 0.05 },
      },
      fused: 0.5,
    };
    const lists: ModeResult[] = [
      {
        mode: 'hybrid_graph',
        results: [
          { ...alice, score: 0.62, explain },
          { ...bob, score: 0.3 },
        ],
      },
    ];
    const why = explainTop('Where is the Platform team based?', lists, []);
    expect(why?.reasons).toEqual([
      'Score 0.620 in hybrid_graph, ahead of the second by 0.320.',
      'bm25 arm (words): rank 2, adds 0.200 (weight 0.25)',
      'vector arm (meaning): rank 1, adds 0.250 (weight 0.25)',
      'soft match (word by word): not in its list, adds 0.000 (weight 0.40)',
      'graph arm (entities): rank 4, adds 0.050 (weight 0.10)',
      'Fused score 0.500 (the sum of the arms); 0.620 after the content prior, answer type and conversation scores.',
      'Shares with the question: platform, team.',
      'POST /context leaves it out of the block.',
    ]);
    // A one-arm mode: its one arm, no fusion line.
    const single = explainTop(
      'Platform',
      [
        {
          mode: 'bm25',
          results: [
            {
              ...alice,
              explain: {
                arms: { bm25: { rank: 1, score: 0.9, weight: 1, contribution: 0.9 } },
                fused: 0.9,
              },
            },
          ],
        },
      ],
      [],
    );
    expect(single?.reasons[1]).toBe('bm25 arm (words): rank 1, adds 0.900 (weight 1.00)');
    expect(single?.reasons.some((r) => r.startsWith('Fused'))).toBe(false);
  });

  it('falls back to the first mode with results, and says when nothing is shared or in the block', () => {
    const why = explainTop('colleague', [{ mode: 'vector', results: [bob] }], []);
    expect(why?.mode).toBe('vector');
    expect(why?.reasons).toContain(
      'Shares no word with the question: it was found by meaning or through entities.',
    );
    expect(why?.reasons.at(-1)).toBe('POST /context leaves it out of the block.');
  });

  it('has nothing to explain without results', () => {
    expect(explainTop('q', [{ mode: 'bm25', results: [] }], [])).toBeNull();
  });

  it('keeps content words, not function words or short ones', () => {
    expect([...contentWords('Who is the lead of Berlin’s team?')]).toEqual([
      'lead',
      'berlin',
      'team',
    ]);
  });
});
