import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import {
  currentItems,
  factWindow,
  recentItems,
  WINDOW_READ_BUDGET,
} from '../../../functions/memory/store/fact-window.ts';
import { insertItems, LIST_READ_BUDGET, listItems } from '../../../functions/memory/store/items.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';
import type { NewItem } from '../../../functions/memory/store/types.ts';
import { VectorCache } from '../../../functions/memory/store/vectors.ts';

// Reads over a Context's items stay bounded whatever its size and whatever the reader's lens
// sees: a list call, the context block's recent facts, reflection's and consolidation's windows
// read at most a budget of rows and say where to go on (store/fact-window.ts, items.ts).

describe('fact windows', () => {
  const item = (i: number): NewItem => ({
    kind: 'fact',
    content: `window note ${i}`,
    scopes: i >= 250 ? ['team:eng'] : ['team:sales'],
    metadata: null,
    sessionId: null,
    sourceId: null,
    vector: null,
  });

  it('stops at its read budget and says where; newest first reads from the end', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('fact-window'), (_obj, state) => {
      applyMigrations(state.storage);
      const sql = state.storage.sql;
      state.storage.transactionSync(() =>
        insertItems(
          sql,
          new VectorCache(),
          Array.from({ length: 300 }, (_, i) => item(i)),
          '2024-01-01T00:00:00.000Z',
        ),
      );
      const eng = [['team:eng']];
      const seen: string[] = [];
      let from = 0;
      let reads = 0;
      for (;;) {
        const w = factWindow(sql, { lens: eng, kinds: ['fact'], from, limit: 10, budget: 100 });
        seen.push(...w.facts.map((f) => f.content));
        expect(w.through).toBeGreaterThan(from);
        from = w.through;
        reads++;
        if (w.end) break;
      }
      // 200 hidden rows read 100 at a time; then the last 50 hidden and 10 visible; then 10 a call.
      expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => `window note ${250 + i}`));
      expect(reads).toBe(2 + 5);
      const newest = currentItems(sql, { lens: [['team:sales']], kinds: ['fact'], limit: 5 });
      expect(newest.map((f) => f.content)).toEqual(
        [245, 246, 247, 248, 249].map((i) => `window note ${i}`),
      );
    });
  });
});

describe('reads bounded at any size', () => {
  it('a list call and the recent facts read at most their budget of rows, whatever the lens sees', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('bounded-reads'), (_obj, state) => {
      applyMigrations(state.storage);
      const sql = state.storage.sql;
      const n = LIST_READ_BUDGET + 5_000;
      // Rows straight into `items` (only `items` is read here): eng sees the first and last ten.
      sql.exec(
        `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ?)
         INSERT INTO items (id, kind, content, scopes, created_at, valid_from)
         SELECT 'fact_' || i, 'fact', 'note ' || i,
                CASE WHEN i <= 10 OR i > ? THEN '["team:eng"]' ELSE '["team:sales"]' END,
                '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z' FROM c`,
        n,
        n - 10,
      );
      const eng = [['team:eng']];
      const first = listItems(sql, {
        lens: eng,
        after: 0,
        limit: 50,
        excludeSuperseded: true,
        kind: null,
      });
      // Ten found, then the budget ends the call with a cursor, not a read to the table's end.
      expect(first.items.map((i) => i.id)).toEqual(
        Array.from({ length: 10 }, (_, i) => `fact_${i + 1}`),
      );
      expect(first.next).toBe(LIST_READ_BUDGET);
      const second = listItems(sql, {
        lens: eng,
        after: first.next ?? 0,
        limit: 50,
        excludeSuperseded: true,
        kind: 'fact',
      });
      expect(second.items.map((i) => i.id)).toEqual(
        Array.from({ length: 10 }, (_, i) => `fact_${n - 9 + i}`),
      );
      expect(second.next).toBeNull();
      // A full page stops at its limit and says where.
      const all = [['*']];
      const page = listItems(sql, {
        lens: all,
        after: 0,
        limit: 3,
        excludeSuperseded: true,
        kind: null,
      });
      expect([page.items.length, page.next]).toEqual([3, 3]);
      // Newest first, from the newest WINDOW_READ_BUDGET rows only.
      expect(recentItems(sql, 'fact', eng, 3).map((i) => i.id)).toEqual(
        [n, n - 1, n - 2].map((i) => `fact_${i}`),
      );
      expect(WINDOW_READ_BUDGET).toBeLessThan(n - 10);
      expect(recentItems(sql, 'fact', eng, 20)).toHaveLength(10);
    });
  });
});
