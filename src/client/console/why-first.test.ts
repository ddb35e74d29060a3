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
