import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { setBudgetLimit } from '../../../functions/memory/store/memory-budget.ts';
import { postingsIndex } from '../../../functions/memory/store/postings-cache.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';
import type { NewItem } from '../../../functions/memory/store/types.ts';
import { VectorCache } from '../../../functions/memory/store/vectors.ts';
import { indexAfterSearches, plainItem, writeInBatches } from './helpers.ts';

// The postings index is a cache of FTS5 (store/postings-cache.ts) that no search pays for in
// proportion to the Context: none is built above 20,000 rows, and a bulk write drops it rather
// than have the next search re-read every row written.

/** `n` facts from number `from`, their entities not extracted (none are needed here). */
function facts(n: number, from: number): NewItem[] {
  return Array.from({ length: n }, (_, i) => ({
    ...plainItem(`note ${from + i} on the billing roadmap`),
    entities: [],
  }));
}

describe('the postings index', () => {
  it('is dropped by a bulk write, and kept through a small one', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('postings-bulk'), (_obj, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage);
      setBudgetLimit(sql, 64 * 1024 * 1024);
      const cache = new VectorCache();
      const write = (batch: NewItem[]) => writeInBatches(state.storage, cache, batch, batch.length);
      write(facts(3000, 0));
      expect(indexAfterSearches(sql, 4)?.rows).toBe(3000);
      write(facts(500, 3000));
      expect(postingsIndex(sql)?.rows).toBe(3500);
      write(facts(2500, 3500));
      expect(postingsIndex(sql)).toBeNull();
    });
  });

  it('is not built for a Context over 20,000 rows, whatever the budget', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('postings-large'), (_obj, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage);
      setBudgetLimit(sql, 64 * 1024 * 1024);
      writeInBatches(state.storage, new VectorCache(), facts(20_500, 0), 2050);
      expect(indexAfterSearches(sql, 4)).toBeNull();
    });
  }, 120_000);
});
