import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { insertItems } from '../../../functions/memory/store/items.ts';
import { setBudgetLimit } from '../../../functions/memory/store/memory-budget.ts';
import { beginSearch, postingsIndex } from '../../../functions/memory/store/postings-cache.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';
import type { NewItem } from '../../../functions/memory/store/types.ts';
import { VectorCache } from '../../../functions/memory/store/vectors.ts';

// The postings index is a cache of FTS5 (store/postings-cache.ts) that no search pays for in
// proportion to the Context: none is built above 20,000 rows, and a bulk write drops it rather
// than have the next search re-read every row written.

function facts(n: number, from: number): NewItem[] {
  return Array.from({ length: n }, (_, i) => ({
    kind: 'fact',
    content: `note ${from + i} on the billing roadmap`,
    scopes: [],
    metadata: null,
    sessionId: null,
    sourceId: null,
    entities: [],
    vector: null,
  }));
}

/** The index after as many searches as building takes, or null. */
function askedFor(sql: SqlStorage) {
  let index = null;
  for (let i = 0; i < 4 && !index; i++) {
    beginSearch(sql);
    index = postingsIndex(sql);
  }
  return index;
}

describe('the postings index', () => {
  it('is dropped by a bulk write, and kept through a small one', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('postings-bulk'), (_obj, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage);
      setBudgetLimit(sql, 64 * 1024 * 1024);
      const cache = new VectorCache();
      const write = (batch: NewItem[]) =>
        state.storage.transactionSync(() => insertItems(sql, cache, batch, '2024-01-01T00:00:00Z'));
      write(facts(3000, 0));
      expect(askedFor(sql)?.rows).toBe(3000);
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
      const cache = new VectorCache();
      for (let i = 0; i < 20_500; i += 2050)
        state.storage.transactionSync(() =>
          insertItems(sql, cache, facts(2050, i), '2024-01-01T00:00:00Z'),
        );
      expect(askedFor(sql)).toBeNull();
    });
  }, 120_000);
});
