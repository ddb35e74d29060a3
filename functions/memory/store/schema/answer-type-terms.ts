import { answerTypeTerms } from '../../retrieval/answer-type.ts';
import { contentTimeTerms, STATES_A_TIME } from '../../retrieval/time-terms.ts';
import type { SchemaMigration } from './types.ts';

/**
 * Items written before the answer-type terms existed learn them (additive for readers): an item
 * whose content states a time (resolved against its `valid_from`, as at write time) gets
 * `qadate`, one that names a place or a person `qaplace` or `qaperson`, appended to its FTS
 * `terms`, so questions asking when, where or who rank old and new items alike. Rows without a
 * `terms` value (an index never rebuilt by the conversation-time step) are left as they are.
 */
export const answerTypeTermsStep: SchemaMigration = {
  version: 10,
  name: 'FTS answer-type terms (qadate, qaplace, qaperson)',
  up() {
    // Nothing but the rows: `fill`, in pieces (a million items took 39 s in one transaction).
  },
  fill(sql, after, rows) {
    const batch = sql
      .exec<{ seq: number; content: string; valid_from: string; terms: string }>(
        `SELECT i.seq, i.content, i.valid_from, f.terms FROM items i
         JOIN items_fts f ON f.rowid = i.seq
         WHERE i.seq > ? AND f.terms IS NOT NULL ORDER BY i.seq LIMIT ?`,
        after,
        rows,
      )
      .toArray();
    for (const row of batch) {
      const have = new Set(row.terms.split(' '));
      const time = contentTimeTerms(row.content, row.valid_from).includes(STATES_A_TIME)
        ? [STATES_A_TIME]
        : [];
      const added = [...time, ...answerTypeTerms(row.content)].filter((t) => !have.has(t));
      if (added.length === 0) continue;
      sql.exec(
        'UPDATE items_fts SET terms = ? WHERE rowid = ?',
        [row.terms, ...added].filter((t) => t !== '').join(' '),
        row.seq,
      );
    }
    return batch.length < rows ? null : (batch[batch.length - 1]?.seq ?? null);
  },
};
