import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { entitiesOf, itemsOfEntity } from '../../../functions/memory/store/entities.ts';
import { searchGraph } from '../../../functions/memory/store/search-graph.ts';
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
