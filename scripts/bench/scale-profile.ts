// Where a large Context's time goes, without wrangler: the object's own write and query functions
// (`insertItems`, `maintain`, `plannedSearch`) over node:sqlite in this process, grown with the
// scale bench's facts and asked its questions, printing for each mode the statements that cost
// most (calls, rows, ms). Not a figure for BENCHMARKS (the scale bench through the API is); a
// profiler's bench, also to run under `node --cpu-prof`:
//   npm run bench -- scale-profile --sizes=10000,100000 [--file=/tmp/ctx.db] [--statements]
//     [--modes=bm25,hybrid] [--interleave]
// With `--file` the Context is kept in that file and grown from what it holds, so a size once
// reached can be asked again after a change (the schema steps run first).
import { embedSif, SIF_MODEL_ID } from '../../functions/memory/retrieval/sif-embeddings.ts';
import { insertItems } from '../../functions/memory/store/items.ts';
import { applyMigrations } from '../../functions/memory/store/schema/runner.ts';
import { plannedSearch } from '../../functions/memory/store/search.ts';
import type { NewItem, SearchMode } from '../../functions/memory/store/types.ts';
import { VectorCache } from '../../functions/memory/store/vectors.ts';
import { nodeStorage } from '../../test/support/node-sql-storage.ts';
import { factAt, questionAt } from './scale-facts.ts';

const MODES: SearchMode[] = ['bm25', 'vector', 'hybrid', 'hybrid_graph'];
const QUESTIONS = 30;

interface StatementCost {
  calls: number;
  rows: number;
  ms: number;
}

function flag(flags: string[], name: string): string | undefined {
  return flags.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** The scale bench's fact `n` as the store writes it, with its local-model vector. */
export function itemAt(n: number): NewItem {
  const f = factAt(n);
  return {
    kind: 'fact',
    content: f.content,
    scopes: f.scopes,
    metadata: f.metadata,
    sessionId: null,
    sourceId: null,
    validFrom: f.valid_from,
    vector: { modelId: SIF_MODEL_ID, values: embedSif(f.content) },
  };
}

/** The API's lens (flat entries OR-ed, nested arrays AND-ed) as the store's DNF. */
function lensOf(lens: (string | string[])[] | undefined): string[][] {
  if (!lens) return [['*']];
  return lens.map((e) => (typeof e === 'string' ? [e] : e));
}

/** `sql.exec` that, while `on`, reads each cursor whole and adds up its cost per statement. */
function countingSql(sql: SqlStorage): { costs: Map<string, StatementCost>; on: boolean } {
  const state = { costs: new Map<string, StatementCost>(), on: false };
  const exec = sql.exec.bind(sql);
  const counted = (query: string, ...bindings: SqlStorageValue[]): SqlStorageCursor<never> => {
    if (!state.on) return exec(query, ...bindings);
    const start = performance.now();
    const cursor = exec(query, ...bindings);
    const rows = cursor.toArray();
    const cost = state.costs.get(query) ?? { calls: 0, rows: 0, ms: 0 };
    cost.calls += 1;
    cost.rows += rows.length;
    cost.ms += performance.now() - start;
    state.costs.set(query, cost);
    const replay = {
      columnNames: cursor.columnNames,
      rowsRead: cursor.rowsRead,
      rowsWritten: cursor.rowsWritten,
      toArray: () => rows,
      one: () => rows[0],
      next: (() => {
        const it = rows[Symbol.iterator]();
        return () => it.next();
      })(),
      raw: () => rows.map((r) => Object.values(r))[Symbol.iterator](),
      [Symbol.iterator]: () => rows[Symbol.iterator](),
    };
    return replay as unknown as SqlStorageCursor<never>;
  };
  (sql as { exec: unknown }).exec = counted;
  return state;
}

function printCosts(costs: Map<string, StatementCost>): void {
  const top = [...costs].sort((a, b) => b[1].ms - a[1].ms).slice(0, 8);
  for (const [query, cost] of top)
    console.log(
      `    ${cost.ms.toFixed(0)} ms, ${cost.calls} calls, ${cost.rows} rows: ${query.replace(/\s+/g, ' ').slice(0, 140)}`,
    );
}

export async function runScaleProfile(flags: string[]): Promise<null> {
  const sizes = (flag(flags, 'sizes') ?? '10000,100000').split(',').map(Number);
  const modes = (flag(flags, 'modes')?.split(',') ?? MODES) as SearchMode[];
  const interleave = flags.includes('--interleave');
  const storage = nodeStorage(flag(flags, 'file'));
  applyMigrations(storage as unknown as DurableObjectStorage);
  const cache = new VectorCache();
  let maintainAsked = false;
  cache.setScheduler(() => {
    maintainAsked = true;
  });
  const counting = flags.includes('--statements') ? countingSql(storage.sql) : null;
  // A background step of the object's alarm, as often as the object would run one.
  const maintain = (): boolean => storage.transactionSync(() => cache.maintain(storage.sql));

  let have = storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM items').one().n;
  for (const size of sizes) {
    const t0 = performance.now();
    const grownFrom = have;
    if (counting) {
      counting.costs.clear();
      counting.on = true;
    }
    let insertMs = 0;
    let maintainMs = 0;
    while (have < size) {
      const batch: NewItem[] = [];
      for (let i = 0; i < 100 && have + i < size; i++) batch.push(itemAt(have + i));
      const start = performance.now();
      const now = new Date().toISOString();
      storage.transactionSync(() => insertItems(storage.sql, cache, batch, now));
      insertMs += performance.now() - start;
      have += batch.length;
      if (maintainAsked) {
        maintainAsked = false;
        const m = performance.now();
        if (maintain()) maintainAsked = true;
        maintainMs += performance.now() - m;
      }
    }
    // The steps a deployed object would have run by now (training, backfill, packing).
    const m = performance.now();
    while (maintain());
    maintainMs += performance.now() - m;
    const seconds = (performance.now() - t0) / 1000;
    if (counting) counting.on = false;
    const rate = have > grownFrom ? `${((have - grownFrom) / seconds).toFixed(0)} facts/s` : '';
    console.log(
      `${size} facts: grown ${have - grownFrom} in ${seconds.toFixed(1)} s ${rate} (insert ${(insertMs / 1000).toFixed(1)} s, background ${(maintainMs / 1000).toFixed(1)} s)`,
    );
    if (counting && have > grownFrom) printCosts(counting.costs);
    for (const mode of modes) {
      if (counting) {
        counting.costs.clear();
        counting.on = true;
      }
      const times: number[] = [];
      for (let q = 0; q < QUESTIONS; q++) {
        // `--interleave`: a chat's pattern, one small write (ten facts, untimed) before each
        // question, so nothing kept until the next write survives from one question to the next.
        if (interleave) {
          const batch = Array.from({ length: 10 }, (_, i) => itemAt(have + i));
          const now = new Date().toISOString();
          storage.transactionSync(() => insertItems(storage.sql, cache, batch, now));
          have += batch.length;
        }
        const question = questionAt(q);
        const vector =
          mode === 'bm25' ? null : { modelId: SIF_MODEL_ID, values: embedSif(question.query) };
        const start = performance.now();
        plannedSearch(storage.sql, cache, {
          mode,
          text: question.query,
          vector,
          k: 10,
          lens: lensOf(question.lens),
        });
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      const at = (p: number) => (times[Math.floor(p * (times.length - 1))] ?? 0).toFixed(1);
      console.log(`  ${mode}: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms`);
      if (!counting) continue;
      counting.on = false;
      printCosts(counting.costs);
    }
  }
  return null;
}
