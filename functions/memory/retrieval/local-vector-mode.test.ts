import { describe, expect, it } from 'vitest';
import { cosine } from './embedder.ts';
import type { Scored } from './fusion.ts';
import { localVectorRanked } from './local-vector-mode.ts';
import { bestSentenceRanked } from './sentence-match.ts';
import { embedSif } from './sif-embeddings.ts';

/** The pool as the vector arm lists it: each item's whole-text cosine, best first. */
function pool(query: Float32Array, contents: Map<number, string>): Scored[] {
  return [...contents]
    .map(([seq, content]) => ({ seq, score: cosine(embedSif(content), query) }))
    .sort((a, b) => b.score - a.score);
}

describe('vector mode with the local model: best sentence plus word-by-word matching', () => {
  const question = 'What did Maya do to her ankle?';
  const vector = embedSif(question);
  const contents = new Map([
    [
      1,
      'Maya: Rolled my ankle last week coming down the steps at the Downs. Crutches for a fortnight.',
    ],
    // A sentence whose average lies nearer the question's ("did … her"), about another joint.
    [2, 'Maya: She did her knee in at the gym, so she is limping about.'],
    [
      3,
      'Maya: Went to the Downs with my sister at the weekend, we walked for hours and it did us both good.',
    ],
  ]);
  const contentOf = (seq: number): string | null => contents.get(seq) ?? null;

  it('ranks the turn that says the asked-about word first, where sentence cosines alone do not', () => {
    const listed = pool(vector, contents);
    // Without the word-by-word score the averaged sentence wins: what this module is for.
    expect(bestSentenceRanked(listed, vector, contentOf)[0]?.seq).toBe(2);
    expect(localVectorRanked(listed, question, vector, contentOf)[0]?.seq).toBe(1);
  });

  it('adds the soft-match score to the sentence score, and keeps every item of the pool', () => {
    const listed = pool(vector, contents);
    const sentences = new Map(
      bestSentenceRanked(listed, vector, contentOf).map((r) => [r.seq, r.score]),
    );
    const ranked = localVectorRanked(listed, question, vector, contentOf);
    expect(ranked.map((r) => r.seq).sort()).toEqual([1, 2, 3]);
    for (const r of ranked) {
      const soft = r.score - (sentences.get(r.seq) ?? Number.NaN);
      // A soft-match score is a weighted mean of per-word matches in [0, 1].
      expect(soft).toBeGreaterThanOrEqual(0);
      expect(soft).toBeLessThanOrEqual(1);
    }
    // The turn that says "ankle" matches that word fully; the others do not say it.
    const gain = (seq: number) =>
      (ranked.find((r) => r.seq === seq)?.score ?? 0) - (sentences.get(seq) ?? 0);
    expect(gain(1)).toBeGreaterThan(gain(2));
    expect(gain(1)).toBeGreaterThan(gain(3));
  });

  it('keeps an item it cannot read at its stored score', () => {
    const before = [{ seq: 9, score: 0.4 }];
    expect(localVectorRanked(before, question, vector, () => null)).toEqual(before);
  });
});
