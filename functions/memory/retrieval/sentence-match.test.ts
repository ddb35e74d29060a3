import { describe, expect, it } from 'vitest';
import { cosine } from './embedder.ts';
import type { Scored } from './fusion.ts';
import { bestSentenceRanked } from './sentence-match.ts';
import { embedSif } from './sif-embeddings.ts';

/** The pool as the vector arm lists it: each item's whole-text cosine, best first. */
function pool(query: Float32Array, contents: Map<number, string>): Scored[] {
  return [...contents]
    .map(([seq, content]) => ({ seq, score: cosine(embedSif(content), query) }))
    .sort((a, b) => b.score - a.score);
}

describe('best-sentence scoring for vector mode', () => {
  const question = embedSif('Which band did Maya see play live?');
  const contents = new Map([
    // The answer, in a long turn that says much else besides.
    [
      1,
      'Maya: Saw the band at the Leadmill last Thursday, they played for three hours. ' +
        'The laundry has piled up all week. My boss wants the spreadsheet by Friday. ' +
        'I have been trying to drink less coffee, it is not going well.',
    ],
    // Near the question as a whole, and not the answer.
    [2, 'Maya: I might see a film this weekend, or just stay home.'],
    [3, 'Maya: Work was just meetings about meetings today.'],
  ]);

  it('ranks a long turn by the sentence that answers, above one nearer as a whole', () => {
    const before = pool(question, contents);
    expect(before[0]?.seq).not.toBe(1);
    const after = bestSentenceRanked(before, question, (seq) => contents.get(seq) ?? null);
    expect(after[0]?.seq).toBe(1);
  });

  it('never lowers a score, and leaves one-sentence items as they were', () => {
    const before = pool(question, contents);
    const after = new Map(
      bestSentenceRanked(before, question, (seq) => contents.get(seq) ?? null).map((r) => [
        r.seq,
        r.score,
      ]),
    );
    for (const r of before) expect(after.get(r.seq) ?? -Infinity).toBeGreaterThanOrEqual(r.score);
    expect(after.get(2)).toBe(before.find((r) => r.seq === 2)?.score);
    expect(after.get(3)).toBe(before.find((r) => r.seq === 3)?.score);
  });

  it('keeps an item it cannot read at its stored score', () => {
    const before = [{ seq: 9, score: 0.4 }];
    expect(bestSentenceRanked(before, question, () => null)).toEqual(before);
  });
});
