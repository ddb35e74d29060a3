import { answerTypeTerm } from '../../retrieval/answer-type.ts';
import { placeTerms } from '../../retrieval/places.ts';
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
  up(sql) {
    const rows = sql.exec<{ seq: number; content: string; terms: string }>(
      `SELECT i.seq, i.content, f.terms FROM items i
       JOIN items_fts f ON f.rowid = i.seq
       WHERE f.terms IS NOT NULL`,
    );
    for (const row of rows.toArray()) {
      const places = placeTerms(row.content);
      if (places.length === 0) continue;
      const have = new Set(row.terms.split(' '));
      const added = [...places, answerTypeTerm('place')].filter((t) => !have.has(t));
      if (added.length === 0) continue;
      sql.exec(
        'UPDATE items_fts SET terms = ? WHERE rowid = ?',
        [row.terms, ...added].filter((t) => t !== '').join(' '),
        row.seq,
      );
    }
  },
};
