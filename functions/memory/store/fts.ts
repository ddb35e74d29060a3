import { contentWords } from '../retrieval/text.ts';

/** FTS5 rows share the item's `seq` as rowid. */
export function ftsInsert(sql: SqlStorage, seq: number, content: string): void {
  sql.exec('INSERT INTO items_fts (rowid, content) VALUES (?, ?)', seq, content);
}

export function ftsDelete(sql: SqlStorage, seq: number): void {
  sql.exec('DELETE FROM items_fts WHERE rowid = ?', seq);
}

/**
 * A safe FTS5 MATCH expression from free text: each content word quoted (so no operator or
 * syntax error can come from user input) and OR-ed, letting bm25 rank by how many match.
 */
export function ftsQuery(text: string): string | null {
  const terms = [...new Set(contentWords(text))].slice(0, 32);
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');
}

export interface FtsHit {
  seq: number;
  /** FTS5 bm25(): lower is better; we negate it so that higher is better. */
  score: number;
}

/** Iterates FTS hits best first; the caller stops when it has enough after filtering. */
export function* ftsSearch(sql: SqlStorage, text: string): Generator<FtsHit> {
  const match = ftsQuery(text);
  if (match === null) return;
  const cursor = sql.exec<{ seq: number; rank: number }>(
    'SELECT rowid AS seq, bm25(items_fts) AS rank FROM items_fts WHERE items_fts MATCH ? ORDER BY rank',
    match,
  );
  for (const row of cursor) yield { seq: row.seq, score: -row.rank };
}
