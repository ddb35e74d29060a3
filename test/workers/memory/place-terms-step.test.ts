import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { placeTermsStep } from '../../../functions/memory/store/schema/place-terms.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';
import { getItemRow, insertItems } from '../../../functions/memory/store/items.ts';
import { search } from '../../../functions/memory/store/search.ts';
import { VectorCache } from '../../../functions/memory/store/vectors.ts';
import { plainItem } from './helpers.ts';

describe('schema step place-terms', () => {
  it('gives items written before the gazetteer the places they name, and leaves the rest alone', async () => {
    const stub = env.CONTEXT_STORE.getByName('place-terms-migration');
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      const cache = new VectorCache();
      applyMigrations(state.storage, placeTermsStep.version - 1);
      const [trip, plain] = insertItems(
        sql,
        cache,
        [
          plainItem('Maya: Booked flights to Bologna! Ten whole days, no laptop.'),
          plainItem('Maya: The family group chat is arguing about Sunday lunch.'),
          plainItem('Tobias: Rent went up again.'),
          plainItem('Tobias: Hiya, long time no chat.'),
        ],
        '2023-02-01T18:00:00.000Z',
      );
      const terms = (id: string | undefined) => {
        const row = id ? getItemRow(sql, id) : null;
        return sql
          .exec<{ terms: string }>('SELECT terms FROM items_fts WHERE rowid = ?', row?.seq ?? -1)
          .one().terms;
      };
      const plainBefore = terms(plain?.id);
      // As written before the step: no gazetteer terms.
      for (const token of ['italy', 'city', 'country', 'qaplace'])
        sql.exec(`UPDATE items_fts SET terms = trim(replace(terms, ?, ''))`, token);
      const req = { vector: null, k: 1, lens: [['*']], mode: 'bm25' as const };
      const ask = (text: string) => search(sql, cache, { ...req, text })[0]?.content;
      expect(terms(trip?.id)).not.toContain('italy');
      applyMigrations(state.storage);
      expect(terms(trip?.id).split(' ')).toEqual(
        expect.arrayContaining(['italy', 'city', 'country', 'qaplace']),
      );
      expect(terms(plain?.id)).toBe(plainBefore);
      expect(ask('Would Maya recommend Italy?')).toBe(trip?.content);
    });
  });
});
