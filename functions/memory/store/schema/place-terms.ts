import { answerTypeTerm } from '../../retrieval/answer-type.ts';
import { placeTerms } from '../../retrieval/places.ts';
import { appendTerms, nextAfter, termRowsAfter } from './fts-term-rows.ts';
import type { SchemaMigration } from './types.ts';

/**
 * Items written before the gazetteer (retrieval/places.ts) learn the places they name (additive
 * for readers): an item naming a city or a country gets its country's names, "city" or
 * "country", and `qaplace`, appended to its FTS `terms`, so "Which country did she choose?" and
 * "Would he recommend Japan?" find "Booked flights to Kyoto!" whenever it was written. Rows without
 * a `terms` value (an index never rebuilt by the conversation-time step) are left as they are.
 */
export const placeTermsStep: SchemaMigration = {
  version: 11,
  name: 'FTS place terms (gazetteer: countries of named cities)',
  up() {
    // Nothing but the rows: `fill`, in pieces (a million items took 11 s in one transaction).
  },
  fill(sql, after, rows) {
    const batch = termRowsAfter(sql, after, rows);
    for (const row of batch) {
      const places = placeTerms(row.content);
      if (places.length > 0) appendTerms(sql, row, [...places, answerTypeTerm('place')]);
    }
    return nextAfter(batch, rows);
  },
};
