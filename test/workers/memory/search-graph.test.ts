import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { entitiesOf, itemsOfEntity } from '../../../functions/memory/store/entities.ts';
import { deleteItemRow, insertItems, type ItemRow } from '../../../functions/memory/store/items.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';
import { searchGraph } from '../../../functions/memory/store/search-graph.ts';
import { VectorCache } from '../../../functions/memory/store/vectors.ts';
import { setup, writeFact } from './helpers.ts';

// hybrid_graph's reads of the item-entity graph (store/search-graph.ts): batched and kept until the
// next write, they must give exactly what one statement per node gives.
describe('the graph a search walks', () => {
  it('reads the same edges batched as one by one, and keeps them until the next write', async () => {
    const { ctx, key } = await setup();
    for (const text of [
      'Ada Lovelace flew to Lisbon with Priya Raman',
      'Last month Priya Raman adopted a beagle puppy',
      'Maya went on a trip to Porto with her cousin',
      'Maya and Ada Lovelace met in Porto',
      'the weather was fine',
    ])
      await writeFact(ctx, key, text);
    await runInDurableObject(env.CONTEXT_STORE.getByName(ctx), (_obj, state) => {
      const sql = state.storage.sql;
      const seqs = sql
        .exec<{ seq: number }>('SELECT seq FROM items ORDER BY seq')
        .toArray()
        .map((r) => r.seq);
      const entityIds = sql
        .exec<{ id: number }>('SELECT id FROM entities ORDER BY id')
        .toArray()
        .map((r) => r.id);
      expect(entityIds.length).toBeGreaterThan(4);

      const graph = searchGraph(sql);
      graph.prefetch(seqs);
      for (const seq of seqs) expect([...graph.entitiesOf(seq)]).toEqual(entitiesOf(sql, seq));
      for (const id of entityIds) {
        const items = graph.itemsOf(id);
        expect(items === null ? null : [...items]).toEqual(itemsOfEntity(sql, id));
      }
      // Kept: the next search gets the same (frozen) lists without reading them again.
      const priya = entityIds.find(
        (id) =>
          sql.exec('SELECT 1 FROM entities WHERE id = ? AND name = ?', id, 'priya raman').toArray()
            .length > 0,
      );
      if (priya === undefined) throw new Error('no entity for Priya Raman');
      const before = searchGraph(sql).itemsOf(priya);
      expect(before).toBe(graph.itemsOf(priya));
      expect(Object.isFrozen(before)).toBe(true);

      // Any write forgets them: a new item of Priya's is in her list on the next read.
      sql.exec(
        `INSERT INTO item_entities (item_seq, entity_id) VALUES (?, ?)`,
        (seqs.at(-1) ?? 0) as number,
        priya,
      );
      const after = searchGraph(sql).itemsOf(priya);
      expect(after).toEqual(itemsOfEntity(sql, priya));
      expect(after).not.toEqual(before);
    });
  });
});

describe('the hubs a walk skips', () => {
  it('are known across writes, and read again once an item is deleted', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('graph-hubs'), (_obj, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage);
      const cache = new VectorCache();
      const write = (from: number, n: number) =>
        state.storage.transactionSync(() =>
          insertItems(
            sql,
            cache,
            Array.from({ length: n }, (_, i) => ({
              kind: 'fact' as const,
              content: `cup ${from + i}`,
              scopes: [],
              metadata: null,
              sessionId: null,
              sourceId: null,
              vector: null,
              entities: ['Coffee'],
            })),
            '2024-01-01T00:00:00.000Z',
          ),
        );
      write(0, 203);
      const coffee = sql
        .exec<{ id: number }>("SELECT id FROM entities WHERE name = 'coffee'")
        .one().id;
      expect(searchGraph(sql).itemsOf(coffee)).toBeNull();
      // A write adds links only: still a hub on the next read.
      write(203, 1);
      expect(searchGraph(sql).itemsOf(coffee)).toBeNull();
      // Deleting items can bring it under the fan-out: read again, not the kept answer.
      const rows = sql.exec<ItemRow>('SELECT * FROM items ORDER BY seq LIMIT 4').toArray();
      state.storage.transactionSync(() => {
        for (const row of rows) deleteItemRow(sql, cache, row);
      });
      const items = searchGraph(sql).itemsOf(coffee);
      expect(items === null ? null : [...items]).toEqual(itemsOfEntity(sql, coffee));
      expect(items?.length).toBe(200);
    });
  });
});
