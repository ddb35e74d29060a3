import { answerTypeTerms } from '../../retrieval/answer-type.ts';
import { contentTimeTerms, STATES_A_TIME } from '../../retrieval/time-terms.ts';
import { appendTerms, nextAfter, termRowsAfter } from './fts-term-rows.ts';
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
    const batch = termRowsAfter(sql, after, rows);
    for (const row of batch) {
      const time = contentTimeTerms(row.content, row.valid_from).includes(STATES_A_TIME)
        ? [STATES_A_TIME]
        : [];
      appendTerms(sql, row, [...time, ...answerTypeTerms(row.content)]);
    }
    return nextAfter(batch, rows);
  },
};
