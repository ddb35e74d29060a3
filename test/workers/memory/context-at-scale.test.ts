import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../fixtures/prng.ts';
import { deleteItemRow, insertItems, type ItemRow } from '../../../functions/memory/store/items.ts';
import { plannedSearch } from '../../../functions/memory/store/search.ts';
import {
  budgetOf,
  DEFAULT_BUDGET_BYTES,
  setBudgetLimit,
} from '../../../functions/memory/store/memory-budget.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';
import type { NewItem } from '../../../functions/memory/store/types.ts';
import { VectorMatrix, type VectorFilter } from '../../../functions/memory/store/vector-matrix.ts';
import {
  BLOCK_ENTRIES,
  PACK_AT,
  packAt,
  packTail,
} from '../../../functions/memory/store/vector-blocks.ts';
import { workFor } from '../../../functions/memory/store/vector-ivf.ts';
import { VectorCache, vectorCount } from '../../../functions/memory/store/vectors.ts';
import { call, json, setup } from './helpers.ts';

// A Context at any size (issue 38): what one Context's object holds across requests is held to
// one memory budget (store/memory-budget.ts); vectors that do not fit are searched through an IVF
// index in SQLite (store/vector-ivf.ts); the postings index is built only when it fits. These
// tests hold the budget, the ANN path against the exact scan, and that dropping what is kept
// never changes an answer.

const MODEL = 'synthetic-test';

/** Unit vectors around `clusters` random centres: what real embeddings of topics look like. */
function clusteredVectors(n: number, dims: number, clusters: number, seed: number): Float32Array[] {
  const next = mulberry32(seed);
  const gauss = (): number =>
    Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());
  const centres = Array.from({ length: clusters }, () =>
    Float32Array.from({ length: dims }, gauss),
  );
  return Array.from({ length: n }, () => {
    const centre = centres[Math.floor(next() * clusters)] ?? new Float32Array(dims);
    const v = Float32Array.from({ length: dims }, (_, i) => (centre[i] ?? 0) + 0.8 * gauss());
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

const SCOPES = [['team:eng'], ['team:sales'], ['team:eng', 'project:falcon'], []];

function items(vectors: Float32Array[], from: number): NewItem[] {
  return vectors.map((values, i) => ({
    kind: 'fact',
    content: `note ${from + i} about topic ${(from + i) % 17}`,
    scopes: SCOPES[(from + i) % SCOPES.length] ?? [],
    metadata: null,
    sessionId: null,
    sourceId: null,
    entities: [],
    vector: { modelId: MODEL, values },
  }));
}

const everything: VectorFilter = () => true;
const engOnly: VectorFilter = (scopes) => scopes.includes('team:eng');

/** The exact top `k` by the packed in-memory scan, read straight from SQLite. */
function exactTop(sql: SqlStorage, query: Float32Array, k: number, accept: VectorFilter) {
  const matrix = new VectorMatrix();
  for (const row of sql.exec<{
    item_seq: number;
    vector: ArrayBuffer;
    scopes: string;
    kind: string;
  }>(
    `SELECT v.item_seq, v.vector, i.scopes, i.kind FROM item_vectors v
       JOIN items i ON i.seq = v.item_seq WHERE v.model_id = ?`,
    MODEL,
  ))
    matrix.set(
      row.item_seq,
      new Float32Array(row.vector),
      JSON.parse(row.scopes) as string[],
      row.kind,
      false,
    );
  return matrix.search(query, k, accept);
}

/** Entries of the IVF lists: packed in blocks and in the tail. */
function indexedEntries(sql: SqlStorage): number {
  const packed = sql
    .exec<{ n: number }>('SELECT COALESCE(SUM(n), 0) AS n FROM _vector_blocks')
    .one().n;
  return packed + sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM _vector_postings').one().n;
}

describe('vectors beyond the memory budget', () => {
  it('a small set through the IVF path gives the exact scan top 10, during and after backfill', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('scale-ivf-small'), (_obj, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage);
      setBudgetLimit(sql, 16 * 1024); // a 200-row matrix of 32 dimensions does not fit
      const cache = new VectorCache();
      const vectors = clusteredVectors(200, 32, 6, 1);
      state.storage.transactionSync(() =>
        insertItems(sql, cache, items(vectors, 0), '2024-01-01T00:00:00.000Z'),
      );
      const queries = clusteredVectors(12, 32, 6, 2);
      const search = (q: Float32Array, accept: VectorFilter) =>
        cache.search(sql, { modelId: MODEL, values: q }, 10, accept);

      // No index yet: the streamed exact scan.
      expect(cache.generations(sql, MODEL)).toEqual([]);
      for (const q of queries) expect(search(q, engOnly)).toEqual(exactTop(sql, q, 10, engOnly));

      // One background step trains the first generation; the vectors it has not taken in yet are
      // scanned exactly, the rest read through their lists.
      expect(state.storage.transactionSync(() => cache.maintain(sql))).toBe(true);
      const [first] = cache.generations(sql, MODEL);
      expect(first?.lists).toBe(14);
      for (const q of queries)
        expect(search(q, everything)).toEqual(exactTop(sql, q, 10, everything));
      while (state.storage.transactionSync(() => cache.maintain(sql)));
      // The backfill writes the tail, as a write does: 200 rows are below the packing's mark.
      expect(sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM _vector_postings').one().n).toBe(
        200,
      );
      expect(indexedEntries(sql)).toBe(200);
      for (const q of queries) {
        expect(search(q, everything)).toEqual(exactTop(sql, q, 10, everything));
        expect(search(q, engOnly)).toEqual(exactTop(sql, q, 10, engOnly));
      }

      // Kept current on write and delete: new vectors go to their nearest list at once.
      const more = clusteredVectors(40, 32, 6, 3);
      state.storage.transactionSync(() =>
        insertItems(sql, cache, items(more, 200), '2024-01-02T00:00:00.000Z'),
      );
      expect(sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM _vector_postings').one().n).toBe(
        240,
      );
      expect(indexedEntries(sql)).toBe(240);
      const gone = search(queries[0] ?? new Float32Array(32), everything)[0]?.seq ?? -1;
      state.storage.transactionSync(() => {
        sql.exec('DELETE FROM item_vectors WHERE item_seq = ?', gone);
        cache.onDelete(sql, gone);
      });
      expect(vectorCount(sql, MODEL)).toBe(239);
      for (const q of queries)
        expect(search(q, everything)).toEqual(exactTop(sql, q, 10, everything));

      // Validity is read best first until the shortlist fills: with the 48 best candidates of a
      // query superseded, it reads on past the first part and still returns the exact top 10.
      const q0 = queries[0] ?? new Float32Array(32);
      const closedOut: VectorFilter = (_scopes, _kind, closed) => !closed;
      const best = exactTop(sql, q0, 48, everything).map((h) => h.seq);
      sql.exec(
        `UPDATE items SET valid_until = '2024-02-01T00:00:00.000Z'
          WHERE seq IN (SELECT value FROM json_each(?))`,
        JSON.stringify(best),
      );
      const open = exactTop(sql, q0, 60, everything).filter((h) => !best.includes(h.seq));
      expect(search(q0, closedOut)).toEqual(open.slice(0, 10));
      expect(budgetOf(sql).total()).toBeLessThanOrEqual(16 * 1024);
    });
  });

  it('a larger set finds at least 0.9 of the exact top 10 while probing a fraction of its lists', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('scale-ivf-recall'), (_obj, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage);
      setBudgetLimit(sql, 64 * 1024);
      const cache = new VectorCache();
      const vectors = clusteredVectors(6000, 48, 40, 4);
      for (let i = 0; i < vectors.length; i += 500)
        state.storage.transactionSync(() =>
          insertItems(sql, cache, items(vectors.slice(i, i + 500), i), '2024-01-01T00:00:00.000Z'),
        );
      while (state.storage.transactionSync(() => cache.maintain(sql)));
      const [gen] = cache.generations(sql, MODEL);
      expect(gen?.lists).toBe(77);
      // Its entries are PQ codes: 24 runs of two dimensions (store/vector-pq.ts).
      expect(gen?.codebook?.subspaces).toBe(24);
      let found = 0;
      const queries = clusteredVectors(40, 48, 40, 5);
      for (const q of queries) {
        const exact = new Set(exactTop(sql, q, 10, everything).map((h) => h.seq));
        const ann = cache.search(sql, { modelId: MODEL, values: q }, 10, everything);
        found += ann.filter((h) => exact.has(h.seq)).length;
        // Every score returned is the exact cosine, not the int8 estimate.
        const scores = new Map(exactTop(sql, q, 200, everything).map((h) => [h.seq, h.score]));
        for (const hit of ann) if (scores.has(hit.seq)) expect(hit.score).toBe(scores.get(hit.seq));
      }
      expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(0.9);
      expect(budgetOf(sql).total()).toBeLessThanOrEqual(64 * 1024);
    });
  }, 120_000);
});

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

describe('the memory budget', () => {
  it('holds every kept structure under its limit while a Context grows to 200k facts', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('scale-budget'), (_obj, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage);
      const limit = 2 * 1024 * 1024;
      setBudgetLimit(sql, limit);
      const cache = new VectorCache();
      const next = mulberry32(7);
      const words = [
        'roadmap',
        'billing',
        'Osaka',
        'garden',
        'marathon',
        'guitar',
        'recipe',
        'Lisbon',
        'invoice',
        'deploy',
        'kernel',
        'tennis',
      ];
      let peak = 0;
      for (let grown = 0; grown < 200_000; grown += 5000) {
        const batch: NewItem[] = Array.from({ length: 5000 }, (_, i) => ({
          kind: 'fact',
          content: `${words[Math.floor(next() * words.length)]} ${words[Math.floor(next() * words.length)]} note ${grown + i}`,
          scopes: SCOPES[i % SCOPES.length] ?? [],
          metadata: null,
          sessionId: null,
          sourceId: null,
          entities: [],
          vector: { modelId: MODEL, values: Float32Array.from({ length: 16 }, () => next() - 0.5) },
        }));
        state.storage.transactionSync(() =>
          insertItems(sql, cache, batch, '2024-01-01T00:00:00.000Z'),
        );
        while (state.storage.transactionSync(() => cache.maintain(sql)));
        const q = Float32Array.from({ length: 16 }, () => next() - 0.5);
        expect(cache.search(sql, { modelId: MODEL, values: q }, 10, engOnly)).toHaveLength(10);
        // A whole search keeps candidates, graph edges, frequencies and maybe postings too.
        for (const mode of ['bm25', 'hybrid_graph'] as const) {
          const found = plannedSearch(sql, cache, {
            mode,
            text: `${words[grown % words.length]} note`,
            vector: { modelId: MODEL, values: q },
            k: 10,
            lens: [['team:eng']],
          });
          expect(found.hits.length).toBe(10);
        }
        peak = Math.max(peak, budgetOf(sql).total());
        expect(budgetOf(sql).total()).toBeLessThanOrEqual(limit);
      }
      expect(vectorCount(sql, MODEL)).toBe(200_000);
      expect(peak).toBeGreaterThan(0);
    });
  }, 600_000);

  it('dropping every kept structure changes no answer in any mode', async () => {
    const { ctx, key } = await setup();
    const topics = [
      'Berlin office move',
      'billing migration',
      'Osaka trip',
      'marathon training',
      'guitar lessons',
    ];
    const facts = Array.from({ length: 120 }, (_, i) => ({
      content: `${['Ada', 'Priya', 'Linus', 'Grace'][i % 4]} worked on the ${topics[i % topics.length]} in week ${i % 9}`,
      scopes: i % 3 === 0 ? ['team:sales'] : ['team:eng'],
    }));
    for (let i = 0; i < facts.length; i += 60) {
      const written = await call('POST', `/api/v1/${ctx}/facts/batch`, {
        key,
        body: { facts: facts.slice(i, i + 60) },
      });
      expect(written.status).toBe(201);
    }
    const questions = ['who worked on the Osaka trip', 'billing migration in week 3', 'guitar'];
    const modes = ['bm25', 'vector', 'hybrid', 'hybrid_graph'] as const;
    // The same ids in the same order; scores equal to 1e-5: FTS5's own list, which answers once
    // the postings index is dropped, differs from the index's by zero-weight terms' 1e-6 shares
    // (store/fts.ts, `weighed-first`).
    const ask = async () => {
      const out: [string, number][][] = [];
      for (const query of questions)
        for (const mode of modes) {
          const res = await call('POST', `/api/v1/${ctx}/query`, {
            key,
            body: { query, mode, k: 10 },
          });
          expect(res.status).toBe(200);
          const body = await json<{ results: { id: string; score: number }[] }>(res);
          out.push(body.results.map((r) => [r.id, r.score]));
        }
      return out;
    };
    await ask(); // builds what searches keep (postings after the second, probes, graph edges)
    const warm = await ask();
    const stub = env.CONTEXT_STORE.getByName(ctx);
    const parts = await runInDurableObject(stub, (_obj, state) => {
      const budget = budgetOf(state.storage.sql);
      const before = budget.report();
      budget.limit = 0;
      budget.settle();
      budget.limit = DEFAULT_BUDGET_BYTES;
      return { before, after: budget.total() };
    });
    expect(Object.keys(parts.before).sort()).toEqual(
      expect.arrayContaining(['graph', 'postings', 'probes', 'vectors']),
    );
    expect(parts.after).toBe(0);
    const same = (got: [string, number][][]): void => {
      expect(got.map((list) => list.map(([id]) => id))).toEqual(
        warm.map((list) => list.map(([id]) => id)),
      );
      got.forEach((list, i) =>
        list.forEach(([, score], j) =>
          expect(Math.abs(score - (warm[i]?.[j]?.[1] ?? NaN))).toBeLessThan(1e-5),
        ),
      );
    };
    same(await ask());
    // Held to a budget too small for any part: nothing is kept, and the answers are the same.
    await runInDurableObject(stub, (_obj, state) => setBudgetLimit(state.storage.sql, 1024));
    same(await ask());
  });
});
