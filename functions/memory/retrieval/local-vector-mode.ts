import type { Scored } from './fusion.ts';
import { bestSentenceRanked } from './sentence-match.ts';
import { softMatchRanked } from './soft-match.ts';

/**
 * `vector` mode with the local model (`local-sif-v2`): each candidate of the stored vectors' list
 * scores its best-sentence cosine (sentence-match.ts) plus its soft-match score (soft-match.ts):
 * every question word's best cosine against the item's words, over the same word vectors. The
 * first compares one averaged vector with another; the second is late interaction, word against
 * word (ColBERT's MaxSim, on static vectors), so a turn that says the question's words, or their
 * neighbours in the vector space, is not outranked by one whose average happens to lie closer.
 * Both are embedding scores, and neither reads the index: the mode stays a vector search.
 *
 * Measured (docs/retrieval.md, sixteenth round), recall@10 in process, chosen on the dev split:
 * dev 0.337 -> 0.453; LoCoMo, never tuned on, 0.485 -> 0.636 (it was behind MiniSearch's 0.522
 * in two kinds, single-hop and temporal, and is ahead in every kind now). Plain sum, chosen on dev
 * among weights 0.5-3 and min-max normalised sums (0.423-0.435 at a pool of 100).
 */
export function localVectorRanked(
  pool: Scored[],
  question: string,
  queryVector: Float32Array,
  contentOf: (seq: number) => string | null,
): Scored[] {
  const sentences = bestSentenceRanked(pool, queryVector, contentOf);
  const docs = pool.flatMap((r) => {
    const content = contentOf(r.seq);
    return content === null ? [] : [{ seq: r.seq, content }];
  });
  const soft = new Map(softMatchRanked(question, docs).map((r) => [r.seq, r.score]));
  return sentences
    .map((r) => ({ seq: r.seq, score: r.score + (soft.get(r.seq) ?? 0) }))
    .sort((a, b) => b.score - a.score || a.seq - b.seq);
}
