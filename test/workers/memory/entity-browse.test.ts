import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import {
  decodeEntityCursor,
  encodeEntityCursor,
} from '../../../functions/memory/operations/entities.ts';
import { MemoryError } from '../../../functions/memory/errors.ts';
import {
  ENTITY_COUNT_CAP,
  entityDetail,
  entityPage,
  type EntityCursor,
  type EntitySummary,
} from '../../../functions/memory/store/entity-browse.ts';
import { insertItems } from '../../../functions/memory/store/items.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';
import type { NewItem } from '../../../functions/memory/store/types.ts';
import { VectorCache } from '../../../functions/memory/store/vectors.ts';

// The entity browse (store/entity-browse.ts) does bounded work whatever a Context's size: an
// entity's count stops at ENTITY_COUNT_CAP and says so, a page stops at its budget and goes on
// from a cursor, even inside one entity's links, and what a reader may not see stays unseen.

const ENG = [['team:eng']];
const N = 2_100;

/** Item i: every one names coffee; the first 40 name tea; rare is named by items 100-399. */
function item(i: number): NewItem {
  const names = ['Coffee'];
  if (i < 40) names.push('Tea');
  if (i >= 100 && i < 400) names.push('Rare');
  if (i >= 2_000 && i < 2_005) names.push('Ghost');
  // Rare is visible to eng only through item 100, its oldest; every third item is sales'.
  const sales = (i > 100 && i < 400) || i % 3 === 2;
  return {
    kind: 'fact',
    content: `note ${i}`,
    scopes: sales ? ['team:sales'] : ['team:eng'],
    metadata: null,
    sessionId: null,
    sourceId: null,
    vector: null,
    entities: names,
  };
}

/** Items 5, 15, 25, ... and the five Ghost ones are superseded: history, not current. */
const superseded = (i: number) => i % 10 === 5 || (i >= 2_000 && i < 2_005);
const visibleToEng = (i: number) => !superseded(i) && !item(i).scopes.includes('team:sales');

async function withStore<T>(name: string, run: (sql: SqlStorage) => T): Promise<T> {
  return runInDurableObject(env.CONTEXT_STORE.getByName(name), (_obj, state) => {
    const sql = state.storage.sql;
    applyMigrations(state.storage);
    const cache = new VectorCache();
    const all = Array.from({ length: N }, (_, i) => item(i));
    for (let i = 0; i < N; i += 500)
      state.storage.transactionSync(() =>
        insertItems(sql, cache, all.slice(i, i + 500), '2024-01-01T00:00:00.000Z'),
      );
    const seqs = sql
      .exec<{ seq: number }>('SELECT seq FROM items ORDER BY seq')
      .toArray()
      .map((r) => r.seq);
    sql.exec(
      "UPDATE items SET valid_until = '2024-02-01T00:00:00.000Z' WHERE seq IN (SELECT value FROM json_each(?))",
      JSON.stringify(seqs.filter((_, i) => superseded(i))),
    );
    return run(sql);
  });
}

function walk(
  sql: SqlStorage,
  budget: number,
  limit: number,
): { entities: EntitySummary[]; pages: number; empty: number } {
  const entities: EntitySummary[] = [];
  let from: EntityCursor | null = { start: 0, before: null };
  let pages = 0;
  let empty = 0;
  while (from !== null && pages < 1_000) {
    const page = entityPage(sql, { lens: ENG, from, limit, prefix: null, budget });
    pages++;
    if (page.entities.length === 0 && page.next !== null) empty++;
    entities.push(...page.entities);
    from = page.next;
  }
  return { entities, pages, empty };
}

describe('the entity browse at any size', () => {
  it('counts current items inside the lens exactly below the cap, and stops at the cap', async () => {
    await withStore('entity-browse-counts', (sql) => {
      const page = entityPage(sql, {
        lens: ENG,
        from: { start: 0, before: null },
        limit: 50,
        prefix: null,
      });
      const byName = new Map(page.entities.map((e) => [e.name, e]));
      const eng = Array.from({ length: N }, (_, i) => i).filter(visibleToEng);
      expect(eng.length).toBeGreaterThan(ENTITY_COUNT_CAP);
      expect(byName.get('coffee')).toEqual({
        name: 'coffee',
        display: 'Coffee',
        items: ENTITY_COUNT_CAP,
        items_more: true,
      });
      expect(byName.get('tea')).toMatchObject({
        items: eng.filter((i) => i < 40).length,
        items_more: false,
      });
      expect(byName.get('rare')).toMatchObject({ items: 1, items_more: false });
      // Only superseded items name it: absent, in the page and by name.
      expect(byName.has('ghost')).toBe(false);
      expect(entityDetail(sql, { lens: ENG, name: 'ghost', limit: 10 })).toBeNull();
      expect(page.next).toBeNull();
    });
  });

  it('gives the first items oldest first, and a count its budget cut short says so', async () => {
    await withStore('entity-browse-detail', (sql) => {
      const ids = sql
        .exec<{ id: string }>('SELECT id FROM items ORDER BY seq')
        .toArray()
        .map((r) => r.id);
      const eng = Array.from({ length: N }, (_, i) => i).filter(visibleToEng);
      const tea = entityDetail(sql, { lens: ENG, name: 'TEA', limit: 5 });
      expect(tea?.entity).toMatchObject({ items: eng.filter((i) => i < 40).length });
      expect(tea?.items.map((r) => r.id)).toEqual(eng.slice(0, 5).map((i) => ids[i]));

      const cut = entityDetail(sql, { lens: ENG, name: 'coffee', limit: 3, budget: 60 });
      expect(cut?.entity).toMatchObject({
        items: eng.filter((i) => i < 60).length,
        items_more: true,
      });
      expect(cut?.items.map((r) => r.id)).toEqual(eng.slice(0, 3).map((i) => ids[i]));
      // The one item of rare's 300 the lens sees is found whatever the budget.
      const rare = entityDetail(sql, { lens: ENG, name: 'rare', limit: 5, budget: 10 });
      expect(rare?.items.map((r) => r.id)).toEqual([ids[100]]);
    });
  });

  it('pages on from a cursor inside an entity when its budget runs out, and finds the same entities', async () => {
    await withStore('entity-browse-budget', (sql) => {
      const whole = walk(sql, 1_000_000, 100);
      expect(whole.pages).toBe(1);
      const names = whole.entities.map((e) => e.name);
      expect(names).toEqual(['coffee', 'tea', 'rare']);

      // A budget of 40 reads: rare's one visible item is its oldest, behind 299 sales' ones
      // (newest first), so pages end inside rare's links before any entity is found.
      const small = walk(sql, 40, 100);
      expect(small.entities.map((e) => e.name)).toEqual(names);
      expect(small.empty).toBeGreaterThan(5);
      expect(small.entities.find((e) => e.name === 'rare')).toMatchObject({ items: 1 });
      // Counts cut by the budget say there may be more.
      expect(small.entities.find((e) => e.name === 'coffee')).toMatchObject({ items_more: true });
    });
  });
});

describe('the entity browse and open statements', () => {
  it('reads every statement it starts to its end, also when it stops early', async () => {
    await withStore('entity-browse-statements', (sql) => {
      // A statement left half read holds its snapshot, and no WAL checkpoint gets past it.
      const cursors: SqlStorageCursor<Record<string, SqlStorageValue>>[] = [];
      const watched = {
        exec: (query: string, ...bindings: unknown[]) => {
          const cursor = sql.exec(query, ...bindings);
          cursors.push(cursor);
          return cursor;
        },
      } as unknown as SqlStorage;
      const page = entityPage(watched, {
        lens: ENG,
        from: { start: 0, before: null },
        limit: 1,
        prefix: null,
        budget: 40,
      });
      expect(page.next).not.toBeNull();
      entityDetail(watched, { lens: ENG, name: 'coffee', limit: 2, budget: 10 });
      expect(cursors.length).toBeGreaterThan(2);
      for (const cursor of cursors) expect(cursor.next().done).toBe(true);
    });
  });
});

describe('entity cursors', () => {
  it('round-trip both forms and read the form pages had before budgets', () => {
    for (const next of [
      { start: 7, before: null },
      { start: 12, before: 4_051 },
    ])
      expect(decodeEntityCursor(encodeEntityCursor(next))).toEqual(next);
    // `e<id>`: after entity <id>, as cursors were written before.
    expect(decodeEntityCursor(btoa('e41').replace(/=+$/, ''))).toEqual({
      start: 42,
      before: null,
    });
    for (const bad of ['not-a-cursor', btoa('e4x'), btoa('r5'), btoa('r5.-1')])
      expect(() => decodeEntityCursor(bad)).toThrow(MemoryError);
  });
});
