import { stemmer } from 'stemmer';
import type { Scored } from './fusion.ts';
import { rowOf, sifWeight } from './sif-embeddings.ts';
import { contentWords, expandContractions, queryWords } from './text.ts';
import { boundedMemo, MEMO_KEY_CHARS } from './bounded-memo.ts';
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
export const unitOf = boundedMemo(20_000, (row: number): Float32Array => {
  const table = wordVectorTable();
  const v = new Float32Array(table.dimensions);
  addRow(table, row, 1, v);
  let n = 0;
  for (const x of v) n += x * x;
  const inv = n > 0 ? 1 / Math.sqrt(n) : 0;
  for (let d = 0; d < v.length; d++) v[d] = (v[d] ?? 0) * inv;
  return v;
});

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
const saidWords = boundedMemo(
  4_096,
  (content: string): Word[] =>
    wordsOf(wordVectorTable(), contentWords(expandContractions(content))),
  MEMO_KEY_CHARS,
);

/**
 * `out[start + k]` = the dot product of `units[start + k]` and `b`, for up to four vectors from
 * `start`, in one pass over `b`: their running sums do not wait on one another, where one dot
 * product at a time makes every addition wait for the one before. Each sum still adds its terms one
 * after another from the first dimension, as a plain dot product loop does, so each value is
 * exactly that loop's (400 dev questions' pools: 1.9 -> 1.35 ms each in Node; docs/retrieval.md,
 * fourteenth round). Lanes past the last vector read the first again and are not stored.
 */
function dotsInto(
  out: Float64Array,
  units: readonly Float32Array[],
  start: number,
  b: Float32Array,
): void {
  const a0 = units[start] as Float32Array;
  const a1 = units[start + 1] ?? a0;
  const a2 = units[start + 2] ?? a0;
  const a3 = units[start + 3] ?? a0;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let d = 0; d < b.length; d++) {
    const x = b[d] as number;
    s0 += (a0[d] as number) * x;
    s1 += (a1[d] as number) * x;
    s2 += (a2[d] as number) * x;
    s3 += (a3[d] as number) * x;
  }
  out[start] = s0;
  if (start + 1 < units.length) out[start + 1] = s1;
  if (start + 2 < units.length) out[start + 2] = s2;
  if (start + 3 < units.length) out[start + 3] = s3;
}

/**
 * The cosines of each of `units` (the question words the table has) with a vocabulary row,
 * computed once per distinct row the pool's turns use (most of a hybrid query's soft-matching
 * time: about 900 distinct words for five question words on the recall set's dev questions).
 */
function rowCosines(units: readonly Float32Array[]): (row: number) => Float64Array {
  const memo = new Map<number, Float64Array>();
  return (row) => {
    const known = memo.get(row);
    if (known !== undefined) return known;
    const b = unitOf(row);
    const out = new Float64Array(units.length);
    for (let i = 0; i < units.length; i += 4) dotsInto(out, units, i, b);
    memo.set(row, out);
    return out;
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
  // Which question words each stem is (a turn word with the same stem matches them fully).
  const byStem = new Map<string, number[]>();
  asked.forEach((q, i) => byStem.set(q.stem, [...(byStem.get(q.stem) ?? []), i]));
  // The question words the table has, by their place in `asked`, and their unit vectors.
  const vectored = asked.flatMap((q, i) => (q.row === undefined ? [] : [i]));
  const cosinesOf = rowCosines(vectored.map((i) => unitOf(asked[i]?.row ?? 0)));
  // Per question word, its best match in the turn so far: 1 for its own stem, else the highest
  // cosine with a turn word (a maximum, so the order the turn's words come in does not matter).
  const best = new Float64Array(asked.length);
  const out: Scored[] = [];
  for (const { seq, content } of pool) {
    best.fill(0);
    for (const d of saidWords(content)) {
      const same = byStem.get(d.stem);
      if (same !== undefined) for (const i of same) best[i] = Math.max(best[i] ?? 0, 1);
      if (d.row === undefined) continue;
      const cosines = cosinesOf(d.row);
      for (let j = 0; j < vectored.length; j++) {
        const i = vectored[j] as number;
        const cos = cosines[j] as number;
        if (cos > (best[i] as number)) best[i] = cos;
      }
    }
    let score = 0;
    for (let i = 0; i < asked.length; i++) {
      const b = best[i] ?? 0;
      const s = b >= 1 ? 1 : Math.max(0, (b - SOFT_FLOOR) / (1 - SOFT_FLOOR));
      score += (weights[i] ?? 0) * s;
    }
    if (score > 0) out.push({ seq, score: score / total });
  }
  return out.sort((a, b) => b.score - a.score || a.seq - b.seq);
}
