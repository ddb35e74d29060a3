import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { deleteItemRow, insertItems, type ItemRow } from '../../../functions/memory/store/items.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';
import type { ItemKind, NewItem } from '../../../functions/memory/store/types.ts';
import { usage } from '../../../functions/memory/store/usage.ts';
import { VectorCache } from '../../../functions/memory/store/vectors.ts';

// A Context's usage reads its items per kind from `_kind_counts` (schema step 15), kept by
// triggers, instead of counting `items` on every GET /contexts/{id}.

function items(kind: ItemKind, n: number, from: number): NewItem[] {
  return Array.from({ length: n }, (_, i) => ({
    kind,
    content: `${kind} ${from + i} about the billing roadmap`,
    scopes: [],
    metadata: null,
    sessionId: null,
    sourceId: kind === 'chunk' ? 'document:doc_1' : null,
    entities: [],
    vector: null,
  }));
}

function counted(sql: SqlStorage): Record<string, number> {
  return Object.fromEntries(
    sql
      .exec<{ kind: string; n: number }>('SELECT kind, COUNT(*) AS n FROM items GROUP BY kind')
      .toArray()
      .map((r) => [r.kind, r.n]),
  );
}

describe('items counted by kind', () => {
  it('are filled by the schema step and kept by every insert and delete', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('kind-counts'), (_obj, state) => {
      const sql = state.storage.sql;
      const cache = new VectorCache();
      const write = (batch: NewItem[]) =>
        state.storage.transactionSync(() =>
          insertItems(sql, cache, batch, '2024-01-01T00:00:00.000Z'),
        );
      applyMigrations(state.storage, 14);
      write([...items('fact', 30, 0), ...items('chunk', 12, 0), ...items('reflection', 2, 0)]);
      const before = usage(sql);
      expect([before.facts, before.chunks, before.reflections]).toEqual([30, 12, 2]);

      applyMigrations(state.storage);
      const filled = usage(sql);
      expect([filled.facts, filled.chunks, filled.reflections]).toEqual([30, 12, 2]);

      write(items('fact', 7, 100));
      state.storage.transactionSync(() => {
        for (const row of sql
          .exec<ItemRow>("SELECT * FROM items WHERE kind = 'chunk' ORDER BY seq LIMIT 5")
          .toArray())
          deleteItemRow(sql, cache, row);
      });
      const kept = usage(sql);
      const truth = counted(sql);
      expect([kept.facts, kept.chunks, kept.reflections]).toEqual([
        truth.fact,
        truth.chunk,
        truth.reflection,
      ]);
      expect([kept.facts, kept.chunks]).toEqual([37, 7]);
    });
  });
});
