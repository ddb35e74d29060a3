import { contentTimeTerms } from '../../retrieval/time-terms.ts';
import type { SchemaMigration } from './types.ts';

/**
 * Conversation structure and time (additive for readers, rebuilds FTS): items learn which
 * conversation `session_label` they belong to and their turn `position` in it (so retrieval can
 * read neighbouring turns), every item gets a stored `valid_from` (existing rows: their
 * `created_at`), and the FTS5 index gains a second column, `terms`, holding the resolved-date
 * tokens of `retrieval/time-terms.ts`, with an `fts5vocab` view of its terms (`items_fts_vocab`).
 *
 * FTS5 tables cannot gain columns, so the index is rebuilt: beside the one readers use, as
 * `items_fts_next`, filled in pieces (runner.ts `migrateInPieces`: at a million items one
 * transaction would hold every row and run past a request's CPU), and swapped in by the last
 * piece together with the new columns. Until then the Context reads and writes as the version
 * before: searches read the old index whole, new items go to it and are copied by a later piece
 * (seqs only grow: `AUTOINCREMENT`), and a deleted item leaves both indexes (fts.ts `ftsDelete`).
 */
export const NEXT_FTS = 'items_fts_next';

export const conversationTime: SchemaMigration = {
  version: 7,
  name: 'item session label, position, stored valid_from, FTS date terms',
  up(sql) {
    sql.exec(`DROP TABLE IF EXISTS ${NEXT_FTS}`);
    sql.exec(
      `CREATE VIRTUAL TABLE ${NEXT_FTS} USING fts5(content, terms, tokenize = 'porter unicode61')`,
    );
    // Per-term document counts (read for the rarity of a word, and to bound a long list), over
    // the index readers use: the old one during the fill, the new one once swapped in.
    sql.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS items_fts_vocab USING fts5vocab(items_fts, 'row')`,
    );
  },
  fill(sql, after, rows) {
    const batch = sql
      .exec<{ seq: number; content: string; valid_from: string }>(
        `SELECT seq, content, COALESCE(valid_from, created_at) AS valid_from FROM items
          WHERE seq > ? ORDER BY seq LIMIT ?`,
        Number(after || 0),
        rows,
      )
      .toArray();
    for (const row of batch)
      sql.exec(
        `INSERT INTO ${NEXT_FTS} (rowid, content, terms) VALUES (?, ?, ?)`,
        row.seq,
        row.content,
        contentTimeTerms(row.content, row.valid_from).join(' '),
      );
    const last = batch[batch.length - 1];
    if (last) {
      // Readers of the version before read a null `valid_from` as `created_at`: the same value.
      sql.exec(
        'UPDATE items SET valid_from = created_at WHERE valid_from IS NULL AND seq > ? AND seq <= ?',
        Number(after || 0),
        last.seq,
      );
    }
    if (batch.length === rows && last) return String(last.seq);
    // Every item is in the new index: the swap, in this piece's transaction.
    sql.exec('ALTER TABLE items ADD COLUMN session_label TEXT');
    sql.exec('ALTER TABLE items ADD COLUMN position INTEGER');
    sql.exec(
      'CREATE INDEX items_session_position ON items(session_label, position) WHERE session_label IS NOT NULL',
    );
    sql.exec('DROP TABLE items_fts_vocab');
    sql.exec('DROP TABLE items_fts');
    sql.exec(`ALTER TABLE ${NEXT_FTS} RENAME TO items_fts`);
    sql.exec(`CREATE VIRTUAL TABLE items_fts_vocab USING fts5vocab(items_fts, 'row')`);
    return null;
  },
};
