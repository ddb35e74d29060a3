/**
 * What the schema steps that add index terms to every item (answer-type-terms.ts, place-terms.ts)
 * read and write, a piece at a time (types.ts `fill`): the items past seq `after` whose FTS row has a
 * `terms` value, in seq order, and their terms with some appended.
 */
export interface TermRow {
  seq: number;
  content: string;
  valid_from: string;
  terms: string;
}

export function termRowsAfter(sql: SqlStorage, after: string, rows: number): TermRow[] {
  return sql
    .exec<{ seq: number; content: string; valid_from: string; terms: string }>(
      `SELECT i.seq, i.content, i.valid_from, f.terms FROM items i
       JOIN items_fts f ON f.rowid = i.seq
       WHERE i.seq > ? AND f.terms IS NOT NULL ORDER BY i.seq LIMIT ?`,
      Number(after || 0),
      rows,
    )
    .toArray();
}

/** Appends the `added` terms a row lacks; writes nothing when it has them all. */
export function appendTerms(sql: SqlStorage, row: TermRow, added: readonly string[]): void {
  const have = new Set(row.terms.split(' '));
  const missing = added.filter((t) => !have.has(t));
  if (missing.length === 0) return;
  sql.exec(
    'UPDATE items_fts SET terms = ? WHERE rowid = ?',
    [row.terms, ...missing].filter((t) => t !== '').join(' '),
    row.seq,
  );
}

/** Where the next piece starts (the last seq done): null once a piece came back short. */
export function nextAfter(batch: readonly TermRow[], rows: number): string | null {
  const last = batch[batch.length - 1];
  return batch.length < rows || !last ? null : String(last.seq);
}
