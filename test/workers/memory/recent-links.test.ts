import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { entityDetail, entityPage } from '../../../functions/memory/store/entity-browse.ts';
import {
  entitiesOf,
  entitiesOfItems,
  itemsOfEntity,
  MERGE_LINKS_AT,
  mergeRecentLinks,
  unlinkEntities,
} from '../../../functions/memory/store/entities.ts';
import { insertItems } from '../../../functions/memory/store/items.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';
import type { NewItem } from '../../../functions/memory/store/types.ts';
import { VectorCache } from '../../../functions/memory/store/vectors.ts';

// A write's item-entity links go to `recent_links` and move into `item_entities` in bulk
// (store/entities.ts): every read gives the same answer wherever a link is, and the move happens
// on its own once MERGE_LINKS_AT links wait.

/** Item i names Coffee (all), Tea (even i), and one of a few people, places and teams. */
function namesOf(i: number): string[] {
  const names = ['Coffee', `Person ${i % 50}`, `Place ${i % 7}`, `Team ${i % 13}`];
  if (i % 2 === 0) names.push('Tea');
  for (const [word, m] of [
    ['Thing', 101],
    ['Word', 3],
    ['Hobby', 17],
    ['Book', 29],
  ] as const)
    names.push(`${word} ${i % m}`);
  return names;
}

function item(i: number): NewItem {
  return {
    kind: 'fact',
    content: `note ${i}`,
    scopes: [],
    metadata: null,
    sessionId: null,
    sourceId: null,
    vector: null,
    entities: namesOf(i),
  };
}

const count = (sql: SqlStorage, table: string) =>
  sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`).one().n;

/** What every read should give, from the names each item was written with. */
function expected(sql: SqlStorage, written: number) {
  const seqs = sql
    .exec<{ seq: number }>('SELECT seq FROM items ORDER BY seq')
    .toArray()
    .map((r) => r.seq);
  const ids = new Map(
    sql
      .exec<{ id: number; name: string }>('SELECT id, name FROM entities')
      .toArray()
      .map((r) => [r.name, r.id]),
  );
  const byItem = new Map<number, number[]>();
  const byEntity = new Map<number, number[]>();
  for (let i = 0; i < written; i++) {
    const seq = seqs[i] ?? -1;
    const entityIds = namesOf(i).map((n) => ids.get(n.toLowerCase()) ?? -1);
    byItem.set(
      seq,
      [...entityIds].sort((a, b) => a - b),
    );
    for (const id of entityIds) byEntity.set(id, [...(byEntity.get(id) ?? []), seq]);
  }
  return { seqs: seqs.slice(0, written), byItem, byEntity };
}

function readsMatch(sql: SqlStorage, written: number): void {
  const want = expected(sql, written);
  for (const seq of want.seqs) expect(entitiesOf(sql, seq)).toEqual(want.byItem.get(seq));
  const batched = entitiesOfItems(sql, want.seqs);
  for (const seq of want.seqs) expect(batched.get(seq)).toEqual(want.byItem.get(seq));
  for (const [id, seqs] of want.byEntity)
    expect(itemsOfEntity(sql, id)).toEqual(seqs.length > 200 ? null : seqs);
  const page = entityPage(sql, {
    lens: [['*']],
    from: { start: 0, before: null },
    limit: 100,
    prefix: null,
  });
  const ids = new Map(
    sql
      .exec<{ id: number; name: string }>('SELECT id, name FROM entities')
      .toArray()
      .map((r) => [r.name, r.id]),
  );
  for (const e of page.entities) {
    const n = want.byEntity.get(ids.get(e.name) ?? -1)?.length ?? 0;
    expect(e.items, e.name).toBe(Math.min(n, 1_000));
  }
  const tea = entityDetail(sql, { lens: [['*']], name: 'tea', limit: 3 });
  expect(tea?.items.map((r) => r.content)).toEqual(['note 0', 'note 2', 'note 4']);
}

describe('recent item-entity links', () => {
  it('give the same reads before and after they move, and move on their own', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('recent-links'), (_obj, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage);
      const cache = new VectorCache();
      let written = 0;
      const write = (n: number) => {
        for (let end = written + n; written < end; written += 100)
          state.storage.transactionSync(() =>
            insertItems(
              sql,
              cache,
              Array.from({ length: Math.min(100, end - written) }, (_, i) => item(written + i)),
              '2024-01-01T00:00:00.000Z',
            ),
          );
      };

      write(600);
      const first = count(sql, 'recent_links');
      expect(first).toBeGreaterThan(4_000);
      expect(first).toBeLessThan(MERGE_LINKS_AT);
      expect(count(sql, 'item_entities')).toBe(0);
      readsMatch(sql, written);

      // Moved by hand: the same reads from the other table.
      expect(state.storage.transactionSync(() => mergeRecentLinks(sql, 0))).toBe(first);
      expect(count(sql, 'recent_links')).toBe(0);
      expect(count(sql, 'item_entities')).toBe(first);
      readsMatch(sql, written);

      // Split across both tables.
      write(600);
      expect(count(sql, 'recent_links')).toBeGreaterThan(0);
      readsMatch(sql, written);

      // Past MERGE_LINKS_AT a write moves them all.
      write(700);
      expect(count(sql, 'recent_links')).toBeLessThan(MERGE_LINKS_AT);
      expect(count(sql, 'item_entities') + count(sql, 'recent_links')).toBe(
        expected(sql, written).seqs.reduce((n, _seq, i) => n + namesOf(i).length, 0),
      );
      readsMatch(sql, written);

      // A deleted item's links go from whichever table holds them.
      const [oldest] = expected(sql, 1).seqs;
      const newest = expected(sql, written).seqs.at(-1);
      for (const seq of [oldest, newest]) {
        if (seq === undefined) throw new Error('no items');
        unlinkEntities(sql, seq);
        expect(entitiesOf(sql, seq)).toEqual([]);
      }
    });
  });
});
