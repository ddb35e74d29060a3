import { bm25Idf, bm25Share } from './bm25.ts';
import { ftsToken, TokenCounter } from './fts-tokens.ts';
import { jsonBatches } from './json-batches.ts';
import { ftsAverages } from './postings-cache.ts';

/**
 * FTS5's bm25 of given rows, computed from their text instead of by FTS5.
 *
 * Why: FTS5's bm25 counts, for every phrase of the query it runs, the rows that hold it, by
 * reading the phrase's whole doclist, once per query and once per phrase (fts5_aux.c,
 * `fts5Bm25GetData`). At a million facts a question's words are in 15,000 to 60,000 rows each,
 * and an answer-type term such as a date's is in nearly all of them: the two FTS5 reads that
 * scored the rows holding every word of a question (store/fts.ts `conjunction`) spent most of
 * their 50 to 70 ms counting, not scoring. Here the counts come from `items_fts_vocab` (kept
 * until the next write), the row count and token totals from FTS5's averages record, and each
 * row's phrase counts and length from its own text, which fts-tokens.ts reads as FTS5 does: the
 * same score as FTS5's, sum for sum.
 *
 * `null` when that cannot hold: a phrase that is not one token, text outside what fts-tokens.ts
 * mirrors, or a row FTS5 no longer holds. The caller then asks FTS5.
 */
export function bm25OfRows(
  sql: SqlStorage,
  seqs: readonly number[],
  phrases: readonly string[],
  frequencies: (tokens: string[]) => Map<string, number>,
): Map<number, number> | null {
  const tokens: string[] = [];
  for (const phrase of phrases) {
    const token = ftsToken(phrase);
    if (token === null) return null;
    tokens.push(token);
  }
  const { rows, tokens: total } = ftsAverages(sql);
  if (rows === 0) return null;
  const avgdl = total / rows;
  const df = frequencies([...new Set(tokens)]);
  const idf = tokens.map((t) => bm25Idf(rows, df.get(t) ?? 0));
  const counter = new TokenCounter(tokens);
  const scores = new Map<number, number>();
  for (const batch of jsonBatches(seqs)) {
    for (const row of sql.exec<Record<string, SqlStorageValue>>(
      'SELECT * FROM items_fts_content WHERE id IN (SELECT value FROM json_each(?))',
      batch,
    )) {
      counter.reset();
      let length = 0;
      for (const [column, value] of Object.entries(row)) {
        if (column === 'id' || typeof value !== 'string') continue;
        const n = counter.add(value);
        if (n < 0) return null;
        length += n;
      }
      let score = 0;
      tokens.forEach((token, i) => {
        const tf = counter.counts.get(token) ?? 0;
        if (tf > 0) score += bm25Share(idf[i] ?? 0, tf, length, avgdl);
      });
      scores.set(Number(row.id), score);
    }
  }
  return scores.size === seqs.length ? scores : null;
}
