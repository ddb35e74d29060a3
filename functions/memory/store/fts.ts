import { queryWords } from '../retrieval/text.ts';
import { jsonBatches } from './json-batches.ts';

/**
 * FTS5 rows share the item's `seq` as rowid. `terms` (resolved-date tokens) is null below the
 * conversation-time schema step, whose index has only the `content` column.
 */
export interface FtsRow {
  seq: number;
  content: string;
  terms: string | null;
}

/** Indexes a batch of items: one statement per JSON chunk (json-batches.ts), rows in order. */
export function ftsInsert(sql: SqlStorage, rows: readonly FtsRow[], withTerms: boolean): void {
  if (withTerms) {
    for (const batch of jsonBatches(rows.map((r) => [r.seq, r.content, r.terms])))
      sql.exec(
        `INSERT INTO items_fts (rowid, content, terms)
         SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?)`,
        batch,
      );
  } else {
    for (const batch of jsonBatches(rows.map((r) => [r.seq, r.content])))
      sql.exec(
        `INSERT INTO items_fts (rowid, content) SELECT value ->> 0, value ->> 1 FROM json_each(?)`,
        batch,
      );
  }
}

export function ftsDelete(sql: SqlStorage, seq: number): void {
  sql.exec('DELETE FROM items_fts WHERE rowid = ?', seq);
}

/**
 * A safe FTS5 MATCH expression from free text: each query word (contractions and possessives
 * resolved, question words dropped: retrieval/text.ts `queryWords`) quoted, so no operator or
 * syntax error can come from user input, and OR-ed, letting bm25 rank by how many match.
 */
export function ftsQuery(text: string, extra: string[] = []): string | null {
  const terms = [...new Set([...queryWords(text), ...extra])].slice(0, 40);
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');
}

export interface FtsHit {
  seq: number;
  /** FTS5 bm25(): lower is better; we negate it so that higher is better. */
  score: number;
}

/** Iterates FTS hits best first; the caller stops when it has enough after filtering. */
export function* ftsSearch(sql: SqlStorage, text: string, extra: string[] = []): Generator<FtsHit> {
  const match = ftsQuery(text, extra);
  if (match === null) return;
  const cursor = sql.exec<{ seq: number; rank: number }>(
    'SELECT rowid AS seq, bm25(items_fts) AS rank FROM items_fts WHERE items_fts MATCH ? ORDER BY rank',
    match,
  );
  for (const row of cursor) yield { seq: row.seq, score: -row.rank };
}

/**
 * In how many items each word occurs, by its Porter stem (the FTS `porter` tokenizer stores stems;
 * `items_fts_vocab` exists from the conversation-time schema step on).
 */
export function documentFrequencies(sql: SqlStorage, stems: string[]): Map<string, number> {
  const out = new Map<string, number>();
  const unique = [...new Set(stems)];
  for (let i = 0; i < unique.length; i += 90) {
    const part = unique.slice(i, i + 90);
    const rows = sql.exec<{ term: string; doc: number }>(
      `SELECT term, doc FROM items_fts_vocab WHERE term IN (${part.map(() => '?').join(', ')})`,
      ...part,
    );
    for (const row of rows) out.set(row.term, (out.get(row.term) ?? 0) + row.doc);
  }
  return out;
}
