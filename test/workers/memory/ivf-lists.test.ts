import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { deleteItemRow, insertItems, type ItemRow } from '../../../functions/memory/store/items.ts';
import { budgetOf, setBudgetLimit } from '../../../functions/memory/store/memory-budget.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';
import type { VectorFilter } from '../../../functions/memory/store/vector-matrix.ts';
import {
  BLOCK_ENTRIES,
  PACK_AT,
  packAt,
  packTail,
} from '../../../functions/memory/store/vector-blocks.ts';
import { workFor } from '../../../functions/memory/store/vector-ivf.ts';
import { VectorCache, vectorCount } from '../../../functions/memory/store/vectors.ts';
import {
  clusteredVectors,
  engOnly,
  everything,
  exactTop,
  indexedEntries,
  items,
  MODEL,
} from './scale-fixtures.ts';

// The IVF index's lists (issue 38): packed in blocks from a tail the writes add, and holding PQ
// codes since schema step 17 (store/vector-blocks.ts, store/vector-pq.ts). Every answer is held
// against the exact scan or against the answers before a background step.

describe('the IVF lists packed in blocks', () => {
  const lenses: [string, VectorFilter][] = [
    ['everything', everything],
    ['eng only', engOnly],
  ];
  const answers = (cache: VectorCache, sql: SqlStorage, queries: Float32Array[]) =>
    queries.flatMap((q) =>
      lenses.map(([, accept]) => cache.search(sql, { modelId: MODEL, values: q }, 10, accept)),
    );

  it('a background step packs the tail into blocks and no answer changes', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('scale-ivf-pack'), (_obj, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage);
      setBudgetLimit(sql, 16 * 1024);
      const cache = new VectorCache();
      let asked = 0;
      cache.setScheduler(() => (asked += 1));
      const first = clusteredVectors(3000, 32, 12, 11);
      state.storage.transactionSync(() =>
        insertItems(sql, cache, items(first, 0), '2024-01-01T00:00:00.000Z'),
      );
      while (state.storage.transactionSync(() => cache.maintain(sql)));
      expect(indexedEntries(sql)).toBe(3000);
      // Every write after the index exists asks for one background step, however many rows.
      asked = 0;
      const [gen] = cache.generations(sql, MODEL);
      if (!gen) throw new Error('no generation trained');
      // Packed from 32 rows a list on average (or PACK_AT): 55 lists here.
      expect(packAt(gen)).toBe(Math.max(PACK_AT, gen.lists * 32));
      const extra = packAt(gen) + 200;
      const more = clusteredVectors(extra, 32, 12, 12);
      for (let i = 0; i < more.length; i += 100)
        state.storage.transactionSync(() =>
          insertItems(
            sql,
            cache,
            items(more.slice(i, i + 100), 3000 + i),
            '2024-01-02T00:00:00.000Z',
          ),
        );
      expect(asked).toBe(1);
      const tail = () =>
        sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM _vector_postings').one().n;
      expect(tail()).toBe(extra);
      const queries = clusteredVectors(15, 32, 12, 13);
      const before = answers(cache, sql, queries);
      expect(state.storage.transactionSync(() => cache.maintain(sql))).toBe(false);
      expect(tail()).toBe(0);
      expect(indexedEntries(sql)).toBe(3000 + extra);
      // No block holds more than a block's entries, and each list's blocks are numbered densely.
      const blocks = sql
        .exec<{ list: number; block: number; n: number }>(
          'SELECT list, block, n FROM _vector_blocks ORDER BY list, block',
        )
        .toArray();
      for (const b of blocks) expect(b.n).toBeLessThanOrEqual(BLOCK_ENTRIES);
      // The same codes, read from blocks instead of rows: the same answers.
      expect(answers(cache, sql, queries)).toEqual(before);
    });
  }, 120_000);

  it('entries deletions leave in blocks are never returned, and a quarter of them rewrites the lists', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('scale-ivf-dead'), (_obj, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage);
      setBudgetLimit(sql, 16 * 1024);
      const cache = new VectorCache();
      const vectors = clusteredVectors(250, 32, 8, 21);
      state.storage.transactionSync(() =>
        insertItems(sql, cache, items(vectors, 0), '2024-01-01T00:00:00.000Z'),
      );
      while (state.storage.transactionSync(() => cache.maintain(sql)));
      const [gen] = cache.generations(sql, MODEL);
      expect(gen?.lists).toBe(16); // read whole: every answer is the exact one
      if (!gen) throw new Error('no generation trained');
      // Packed by hand (250 tail rows are below the background step's mark): the entries a
      // deletion leaves behind are in blocks.
      expect(state.storage.transactionSync(() => packTail(sql, MODEL, gen))).toBe(0);
      expect(indexedEntries(sql)).toBe(250);
      const queries = clusteredVectors(4, 32, 8, 22);
      const drop = (seqs: number[]) =>
        state.storage.transactionSync(() => {
          for (const seq of seqs) {
            const row = sql.exec<ItemRow>('SELECT * FROM items WHERE seq = ?', seq).one();
            deleteItemRow(sql, cache, row);
          }
        });
      // The best hits of every question go first: a stale entry would show up at once.
      const best = new Set(
        queries.flatMap((q) => exactTop(sql, q, 10, everything).map((h) => h.seq)),
      );
      drop([...best]);
      for (const q of queries) {
        const got = cache.search(sql, { modelId: MODEL, values: q }, 10, everything);
        expect(got).toEqual(exactTop(sql, q, 10, everything));
        for (const hit of got) expect(best.has(hit.seq)).toBe(false);
      }
      expect(cache.generations(sql, MODEL)[0]?.dead).toBe(best.size);
      // Past a quarter of the vectors dead, the next step trains a generation without them.
      expect(best.size).toBeLessThan(62);
      const left = sql
        .exec<{ seq: number }>('SELECT seq FROM items ORDER BY seq LIMIT ?', 63 - best.size)
        .toArray()
        .map((r) => r.seq);
      drop(left);
      while (state.storage.transactionSync(() => cache.maintain(sql)));
      const gens = cache.generations(sql, MODEL);
      expect(gens).toHaveLength(1);
      expect(gens[0]?.gen).toBe(2);
      expect(gens[0]?.dead).toBe(0);
      expect(indexedEntries(sql)).toBe(vectorCount(sql, MODEL));
      for (const q of queries)
        expect(cache.search(sql, { modelId: MODEL, values: q }, 10, engOnly)).toEqual(
          exactTop(sql, q, 10, engOnly),
        );
    });
  }, 120_000);

  it('a Context indexed before blocks keeps its answers through the schema step and the packing', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('scale-ivf-upgrade'), (_obj, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage, 13);
      setBudgetLimit(sql, 16 * 1024);
      const cache = new VectorCache();
      const vectors = clusteredVectors(PACK_AT * 2, 32, 10, 31);
      state.storage.transactionSync(() =>
        insertItems(sql, cache, items(vectors, 0), '2024-01-01T00:00:00.000Z'),
      );
      while (state.storage.transactionSync(() => cache.maintain(sql)));
      expect(sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM _vector_postings').one().n).toBe(
        PACK_AT * 2,
      );
      const queries = clusteredVectors(15, 32, 10, 32);
      const before = answers(cache, sql, queries);
      applyMigrations(state.storage);
      cache.reset();
      expect(answers(cache, sql, queries)).toEqual(before);
      while (state.storage.transactionSync(() => cache.maintain(sql)));
      expect(
        sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM _vector_postings').one().n,
      ).toBeLessThan(PACK_AT);
      expect(indexedEntries(sql)).toBe(PACK_AT * 2);
      expect(answers(cache, sql, queries)).toEqual(before);
    });
  }, 120_000);
});

describe('the IVF lists of PQ codes (schema step 17)', () => {
  it('an index of int8 codes is retrained to PQ codes in the background, answering throughout', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('scale-ivf-pq'), (_obj, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage, 16);
      setBudgetLimit(sql, 16 * 1024);
      const cache = new VectorCache();
      const vectors = clusteredVectors(3000, 32, 12, 41);
      for (let i = 0; i < vectors.length; i += 500)
        state.storage.transactionSync(() =>
          insertItems(sql, cache, items(vectors.slice(i, i + 500), i), '2024-01-01T00:00:00.000Z'),
        );
      while (state.storage.transactionSync(() => cache.maintain(sql)));
      const int8 = cache.generations(sql, MODEL);
      expect(int8.map((g) => [g.gen, g.codebook, g.int8])).toEqual([[1, null, false]]);
      const queries = clusteredVectors(20, 32, 12, 42);
      const ask = () =>
        queries.map((q) => cache.search(sql, { modelId: MODEL, values: q }, 10, engOnly));
      const recall = (answers: { seq: number }[][]) => {
        let found = 0;
        queries.forEach((q, i) => {
          const exact = new Set(exactTop(sql, q, 10, engOnly).map((h) => h.seq));
          found += (answers[i] ?? []).filter((h) => exact.has(h.seq)).length;
        });
        return found / (queries.length * 10);
      };
      const before = ask();

      // The step only adds the column: the int8 generation answers as before, and is due for
      // retraining.
      applyMigrations(state.storage);
      cache.reset();
      expect(ask()).toEqual(before);
      const [old] = cache.generations(sql, MODEL);
      expect(old?.int8).toBe(true);
      expect(workFor(cache.generations(sql, MODEL), vectorCount(sql, MODEL))).toBe('train');

      // One step trains the PQ generation; while it takes the vectors in, both are probed.
      expect(state.storage.transactionSync(() => cache.maintain(sql))).toBe(true);
      const both = cache.generations(sql, MODEL);
      expect(both.map((g) => g.gen)).toEqual([1, 2]);
      expect(both[1]?.codebook?.subspaces).toBe(16);
      expect(recall(ask())).toBeGreaterThanOrEqual(0.9);

      while (state.storage.transactionSync(() => cache.maintain(sql)));
      const [pq] = cache.generations(sql, MODEL);
      expect(cache.generations(sql, MODEL)).toHaveLength(1);
      expect(pq?.gen).toBe(2);
      expect(pq?.int8).toBe(false);
      expect(workFor(cache.generations(sql, MODEL), vectorCount(sql, MODEL))).toBeNull();
      expect(indexedEntries(sql)).toBe(3000);
      // Packed: a byte per run of two dimensions, and no scales (one unused float).
      const sizes = sql
        .exec<{ n: number; codes: number; scales: number }>(
          'SELECT n, length(codes) AS codes, length(scales) AS scales FROM _vector_blocks',
        )
        .toArray();
      expect(sizes.length).toBeGreaterThan(0);
      for (const b of sizes) expect([b.codes, b.scales]).toEqual([b.n * 16, 4]);
      const after = ask();
      expect(recall(after)).toBeGreaterThanOrEqual(0.9);
      // Every score returned is the exact cosine, not the codes' estimate.
      queries.forEach((q, i) => {
        const exact = new Map(exactTop(sql, q, 300, engOnly).map((h) => [h.seq, h.score]));
        for (const hit of after[i] ?? []) expect(hit.score).toBe(exact.get(hit.seq));
      });
      expect(budgetOf(sql).total()).toBeLessThanOrEqual(16 * 1024);
    });
  }, 120_000);
});
