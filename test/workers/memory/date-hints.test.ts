import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { dateHintsFor } from '../../../functions/memory/store/date-hints.ts';
import { insertItems } from '../../../functions/memory/store/items.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';
import { search } from '../../../functions/memory/store/search.ts';
import type { NewItem } from '../../../functions/memory/store/types.ts';
import { VectorCache } from '../../../functions/memory/store/vectors.ts';
import { plainItem } from './helpers.ts';

/** One chat turn a day: `said` is its `valid_from`. */
function turn(content: string, said: string, position: number): NewItem {
  return { ...plainItem(content), session: said.slice(0, 10), position, validFrom: said };
}

const NOW = '2024-04-30T12:00:00.000Z';

describe("a Context's own dates decide a question's (issue 42, item 3)", () => {
  it('reads an ambiguous numeric date in the order the Context writes dates', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('date-hints-mdy'), (_i, state) => {
      const sql = state.storage.sql;
      const cache = new VectorCache();
      applyMigrations(state.storage);
      const [march, april] = insertItems(
        sql,
        cache,
        [
          // The 4th of March and the 3rd of April: "03/04/2024" is one of them in each order.
          turn('Maya: Watched the boxing last night, what a fight.', '2024-03-04T20:00:00Z', 0),
          turn('Maya: Watched the boxing again, a rematch this time.', '2024-04-03T20:00:00Z', 0),
          // How this chat writes dates: month first (23 cannot be a month).
          turn('Tobias: Are you free on 4/23?', '2024-04-10T09:00:00Z', 0),
          turn('Maya: Only after 4/25, sorry.', '2024-04-10T09:05:00Z', 1),
        ],
        NOW,
      );
      expect(dateHintsFor(sql, 'What did Maya watch on 03/04/2024?')).toEqual({
        order: 'mdy',
        latest: new Date('2024-04-10T09:05:00Z'),
      });
      // No digits or month: nothing is read.
      expect(dateHintsFor(sql, 'What did Maya watch?')).toEqual({});
      const ask = (text: string) =>
        search(sql, cache, { mode: 'bm25', text, vector: null, k: 2, lens: [['*']] }).map(
          (h) => h.id,
        );
      // Month first: the 4th of March only.
      expect(ask('What did Maya watch on 03/04/2024?')[0]).toBe(march?.id);
      expect(ask('What did Maya watch on 04/03/2024?')[0]).toBe(april?.id);
    });
  });

  it('a day without a year is the latest such day on or before the Context’s last date', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('date-hints-latest'), (_i, state) => {
      const sql = state.storage.sql;
      const cache = new VectorCache();
      applyMigrations(state.storage);
      const [earlier, later] = insertItems(
        sql,
        cache,
        [
          turn('Maya: Cooked a huge paella for everyone.', '2023-02-03T19:00:00Z', 0),
          turn('Maya: Cooked a huge paella again tonight.', '2024-02-03T19:00:00Z', 0),
          turn('Tobias: Morning!', '2024-02-20T08:00:00Z', 0),
        ],
        NOW,
      );
      const ask = (text: string) =>
        search(sql, cache, { mode: 'bm25', text, vector: null, k: 2, lens: [['*']] }).map(
          (h) => h.id,
        );
      expect(ask('What did Maya cook on the 3rd of February?')[0]).toBe(later?.id);
      expect(earlier?.id).not.toBe(later?.id);
    });
  });
});
