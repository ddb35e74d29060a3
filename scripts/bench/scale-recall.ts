// ANN recall@10 against the exact scan, for the scale bench. With the synthetic embedder the
// bench knows every fact's vector (recomputed from the fact's number, never held: a million
// 768-wide vectors would be 3 GiB), so one pass over the facts scores every question at once and
// keeps each question's exact top k among the facts its lens reads. A hit the API returns counts
// as found when its exact score reaches the k-th exact score: facts with the same words have the
// same vector, and any of a tied group is a right answer.
import { lensMatches, parseLens, type Lens } from '../../functions/memory/scopes/lens.ts';
import { dot, syntheticEmbedding } from './fake-embeddings.ts';
import { factAt, type ScaleQuestion } from './scale-facts.ts';

const K = 10;

/** The k best (score, id) pairs seen so far, best first; k is small (10). */
export class TopK {
  readonly ids: number[] = [];
  readonly scores: number[] = [];
  readonly k: number;
  constructor(k: number) {
    this.k = k;
  }

  offer(id: number, score: number): void {
    if (this.ids.length === this.k && score <= (this.scores[this.k - 1] ?? -Infinity)) return;
    let at = this.ids.length;
    while (at > 0 && (this.scores[at - 1] ?? -Infinity) < score) at--;
    this.ids.splice(at, 0, id);
    this.scores.splice(at, 0, score);
    if (this.ids.length > this.k) {
      this.ids.pop();
      this.scores.pop();
    }
  }
}

export interface ExactQuestion {
  vector: Float32Array;
  /** The lens in DNF (scopes/lens.ts), as the store applies it. */
  lens: Lens;
}

export interface ExactItem {
  vector: Float32Array;
  scopes: readonly string[];
}

/** One pass over items 0..count-1: every question's exact top k among the items its lens reads. */
export function exactTopK(
  questions: readonly ExactQuestion[],
  count: number,
  itemAt: (n: number) => ExactItem,
  k: number,
): TopK[] {
  const tops = questions.map(() => new TopK(k));
  for (let n = 0; n < count; n++) {
    const item = itemAt(n);
    questions.forEach((q, i) => {
      if (lensMatches(q.lens, item.scopes)) tops[i]?.offer(n, dot(q.vector, item.vector));
    });
  }
  return tops;
}

/**
 * Share of the exact top k the API found: its hits (the first k) whose exact score reaches the
 * k-th exact score, over the size of the exact list (fewer than k when the lens reads fewer).
 * `scoreOf` is the exact score of a returned item. Scores within `tolerance` count as tied
 * (the store compares float32 vectors, the bench float64 sums).
 */
export function recallAtK(
  returned: readonly number[],
  exact: TopK,
  scoreOf: (n: number) => number,
  tolerance = 1e-5,
): number {
  if (exact.ids.length === 0) return returned.length === 0 ? 1 : 0;
  const bar = (exact.scores[exact.ids.length - 1] ?? Infinity) - tolerance;
  const found = new Set(returned.slice(0, exact.k).filter((n) => scoreOf(n) >= bar)).size;
  return Math.min(found, exact.ids.length) / exact.ids.length;
}

function lensOf(question: ScaleQuestion): Lens {
  if (question.lens === undefined) return [['*']];
  const parsed = parseLens(question.lens);
  if ('problem' in parsed) throw new Error(`question lens: ${parsed.problem}`);
  return parsed.lens;
}

/** Mean recall@10 of `vector` mode's answers against the exact scan over facts 0..facts-1. */
export function vectorRecall(
  width: number,
  facts: number,
  questions: readonly ScaleQuestion[],
  vectorHits: readonly number[][],
): number {
  const exactQuestions = questions.map((q) => ({
    vector: syntheticEmbedding(q.query, width),
    lens: lensOf(q),
  }));
  const tops = exactTopK(
    exactQuestions,
    facts,
    (n) => {
      const fact = factAt(n);
      return { vector: syntheticEmbedding(fact.content, width), scopes: fact.scopes };
    },
    K,
  );
  const recalls = exactQuestions.flatMap((q, i) => {
    const top = tops[i];
    const hits = vectorHits[i];
    if (top === undefined || hits === undefined || hits.length === 0) return [];
    const scoreOf = (n: number) => dot(q.vector, syntheticEmbedding(factAt(n).content, width));
    return [recallAtK(hits, top, scoreOf)];
  });
  return recalls.reduce((a, b) => a + b, 0) / Math.max(1, recalls.length);
}
