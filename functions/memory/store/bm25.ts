/**
 * FTS5's bm25 (fts5_aux.c, fts5Bm25Function), the one formula both places that compute it here
 * use: the postings index (postings-index.ts) and the rows scored from their text (bm25-rows.ts).
 *
 *   score(row) = sum over the query's phrases of idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * D / avgdl))
 *
 * with k1 = 1.2, b = 0.75, idf = log((N - n + 0.5) / (n + 0.5)) (1e-6 when at or below zero), tf
 * the phrase's count in the row over all columns, D the row's token count over all columns, avgdl
 * the mean of D, N the row count and n the rows holding the phrase. Summed phrase by phrase in the
 * query's order, as FTS5 sums, so rows FTS5 scores alike tie here too.
 */

const K1 = 1.2;
const B = 0.75;

/** FTS5's idf of a phrase that `n` of `rows` rows hold. */
export function bm25Idf(rows: number, n: number): number {
  const idf = Math.log((rows - n + 0.5) / (n + 0.5));
  return idf <= 0 ? 1e-6 : idf;
}

/** One phrase's share of a row's score: `tf` occurrences in a row of `D` tokens. */
export function bm25Share(idf: number, tf: number, D: number, avgdl: number): number {
  return idf * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * D) / avgdl)));
}
