import { contentTimeTerms, STATES_A_TIME } from '../../retrieval/time-terms.ts';
import type { SchemaMigration } from './types.ts';

/**
 * Items written before `STATES_A_TIME` existed learn it (additive for readers): every item whose
 * content states a time, resolved against its `valid_from` as at write time, gets the token
 * appended to its FTS `terms`, so "when…" questions rank old and new turns alike. Rows without
 * a `terms` value (an index never rebuilt by the conversation-time step) are left as they are.
 */
export const timeStatedTerm: SchemaMigration = {
  version: 10,
  name: 'FTS term for items that state a time',
  up(sql) {
    const rows = sql.exec<{ seq: number; content: string; valid_from: string; terms: string }>(
      `SELECT i.seq, i.content, i.valid_from, f.terms FROM items i
       JOIN items_fts f ON f.rowid = i.seq
       WHERE f.terms IS NOT NULL`,
    );
    for (const row of rows.toArray()) {
      if (row.terms.split(' ').includes(STATES_A_TIME)) continue;
      if (!contentTimeTerms(row.content, row.valid_from).includes(STATES_A_TIME)) continue;
      sql.exec(
        'UPDATE items_fts SET terms = ? WHERE rowid = ?',
        row.terms === '' ? STATES_A_TIME : `${row.terms} ${STATES_A_TIME}`,
        row.seq,
      );
    }
  },
};
