import { stemmer } from 'stemmer';
import type { Scored } from './fusion.ts';
import { rowOf, sifWeight } from './sif-embeddings.ts';
import { contentWords, expandContractions, queryWords } from './text.ts';
import { boundedMemo } from './bounded-memo.ts';
import { addRow, wordVectorTable, type WordVectorTable } from './word-vector-table.ts';

/**
 * Word-level soft matching over a candidate pool: each of the question's words finds its closest
 * word in a turn (cosine of their word vectors; 1 for the same stem), and the turn scores the
 * weighted mean of those best matches. Averaging a whole turn into one vector (SIF) drowns the
 * one word that answers ("pottery" among fourteen others) in the rest of the turn; matching word
 * by word keeps it, which is what "ceramics workshop" -> "pottery studio" or "chest" -> "rib"
 * needs. It is the word-embedding form of soft cosine / maximum-similarity matching (Kusner et
 * al.'s word mover's distance relaxed to its per-word bound; Khattab & Zaharia's MaxSim with
 * static vectors), and it only ranks what the other arms already found, so its cost is bounded
 * by their depth, not by the Context's size.
 */

/**
 * Cosines at or below this count as no match; above it they are rescaled onto (0, 1]. GloVe 100d
 * puts unrelated common words around 0.1-0.3 apart. Chosen on the dev split with the arm's weight
 * (fusion.ts): floor 0.35 -> 0.631, 0.25 -> 0.639 hybrid recall@10 at weight 3.
 */
export const SOFT_FLOOR = 0.25;

/** A vocabulary row's unit vector, computed once per isolate (20,000 rows at most). */
const unitOf = boundedMemo(20_000, (row: number): Float32Array => {
  const table = wordVectorTable();
  const v = new Float32Array(table.dimensions);
  addRow(table, row, 1, v);
  let n = 0;
  for (const x of v) n += x * x;
  const inv = n > 0 ? 1 / Math.sqrt(n) : 0;
  for (let d = 0; d < v.length; d++) v[d] = (v[d] ?? 0) * inv;
  return v;
});

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let d = 0; d < a.length; d++) s += (a[d] ?? 0) * (b[d] ?? 0);
  return s;
}

interface Word {
  stem: string;
  row: number | undefined;
}

function wordsOf(table: WordVectorTable, list: string[]): Word[] {
  return list.map((w) => ({ stem: stemmer(w), row: rowOf(table, w) }));
}

/**
 * A turn's analysed words by its content (4,096 turns). The same turns come back query after query
 * (the arms' candidate pools overlap), and tokenising, expanding and stemming them again was a
 * tenth of a hybrid query's time; a turn's words follow from its text, so it cannot go stale.
 */
const saidWords = boundedMemo(4_096, (content: string): Word[] =>
  wordsOf(wordVectorTable(), contentWords(expandContractions(content))),
);

/**
 * A question word's cosine with one vocabulary row, memoised for the query: the pool's turns share
 * most of their words, so each distinct pair is computed once.
 */
function pairScorer(row: number): (other: number) => number {
  const memo = new Map<number, number>();
  const mine = unitOf(row);
  return (other) => {
    const known = memo.get(other);
    if (known !== undefined) return known;
    const cos = dot(mine, unitOf(other));
    memo.set(other, cos);
    return cos;
  };
}

/** Soft-match scores of `pool` for `question`, best first; items that match nothing are left out. */
export function softMatchRanked(
  question: string,
  pool: readonly { seq: number; content: string }[],
): Scored[] {
  const table = wordVectorTable();
  const asked = wordsOf(table, queryWords(question));
  if (asked.length === 0) return [];
  // Rare words say more: SIF's weight for known words, full weight for words the table lacks.
  const weights = asked.map((q) => (q.row === undefined ? 1 : sifWeight(q.row)));
  const total = weights.reduce((a, b) => a + b, 0);
  const cosines = asked.map((q) => (q.row === undefined ? null : pairScorer(q.row)));
  const out: Scored[] = [];
  for (const { seq, content } of pool) {
    const said = saidWords(content);
    let score = 0;
    asked.forEach((q, i) => {
      const cosine = cosines[i] ?? null;
      let best = 0;
      for (const d of said) {
        if (d.stem === q.stem) {
          best = 1;
          break;
        }
        if (cosine === null || d.row === undefined) continue;
        const cos = cosine(d.row);
        if (cos > best) best = cos;
      }
      const s = best >= 1 ? 1 : Math.max(0, (best - SOFT_FLOOR) / (1 - SOFT_FLOOR));
      score += (weights[i] ?? 0) * s;
    });
    if (score > 0) out.push({ seq, score: score / total });
  }
  return out.sort((a, b) => b.score - a.score || a.seq - b.seq);
}
