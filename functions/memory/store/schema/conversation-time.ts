import { contentTimeTerms } from '../../retrieval/time-terms.ts';
import type { SchemaMigration } from './types.ts';

/**
 * Conversation structure and time (additive for readers, rebuilds FTS): items learn which
 * conversation `session_label` they belong to and their turn `position` in it (so retrieval can
 * read neighbouring turns), every item gets a stored `valid_from` (existing rows: their
 * `created_at`), and the FTS5 index gains a second column, `terms`, holding the resolved-date
 * tokens of `retrieval/time-terms.ts`, with an `fts5vocab` view of its terms (`items_fts_vocab`). FTS5 tables cannot gain columns, so `items_fts` is rebuilt
 * from `items` under the same name, with the tokens computed for existing rows.
 */
export const conversationTime: SchemaMigration = {
  version: 7,
  name: 'item session label, position, stored valid_from, FTS date terms',
  up(sql) {
    sql.exec('ALTER TABLE items ADD COLUMN session_label TEXT');
    sql.exec('ALTER TABLE items ADD COLUMN position INTEGER');
    sql.exec('UPDATE items SET valid_from = created_at WHERE valid_from IS NULL');
    sql.exec(
      'CREATE INDEX items_session_position ON items(session_label, position) WHERE session_label IS NOT NULL',
    );
    sql.exec('DROP TABLE items_fts');
    sql.exec(
      `CREATE VIRTUAL TABLE items_fts USING fts5(content, terms, tokenize = 'porter unicode61')`,
    );
    // Per-term document counts, read by pseudo-relevance feedback for the rarity of a word.
    sql.exec(`CREATE VIRTUAL TABLE items_fts_vocab USING fts5vocab(items_fts, 'row')`);
    const rows = sql.exec<{ seq: number; content: string; valid_from: string }>(
      'SELECT seq, content, valid_from FROM items ORDER BY seq',
    );
    for (const row of rows.toArray()) {
      sql.exec(
        'INSERT INTO items_fts (rowid, content, terms) VALUES (?, ?, ?)',
        row.seq,
        row.content,
        contentTimeTerms(row.content, row.valid_from).join(' '),
      );
    }
  },
};
