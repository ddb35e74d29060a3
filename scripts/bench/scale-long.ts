// Long work on a large Context, without wrangler: the consolidation walk's calls and the
// re-embedding job's runs, each timed, over node:sqlite in this process on a Context kept in a
// file (grow one with `npm run bench -- scale-profile --sizes=1000000 --file=F`; this part writes
// to it, so give it a copy). Prints only; what a call costs is what a request's CPU limit sees.
//   npm run bench -- scale-long --file=/tmp/ctx.db [--windows=20] [--jobs=4]
// Also one migration call (MIGRATION_ROWS_PER_CALL rows) of each schema step with a `fill`.
import { planConsolidation } from '../../functions/memory/inference/consolidate.ts';
import { localProvider } from '../../functions/memory/models/local-provider.ts';
import { embedHashed, HASH_MODEL_ID } from '../../functions/memory/retrieval/local-embeddings.ts';
import { consolidationSet } from '../../functions/memory/store/consolidation-set.ts';
import { countStaleVectors } from '../../functions/memory/store/model-paths.ts';
import {
  staleItems,
  storeVectors,
  type ModelHandle,
} from '../../functions/memory/store/model-rpc.ts';
import { SCHEMA_MIGRATIONS } from '../../functions/memory/store/schema/index.ts';
import { applyMigrations, FILL_PIECE } from '../../functions/memory/store/schema/runner.ts';
import { MIGRATION_ROWS_PER_CALL } from '../../functions/memory/store/migrate-fenced.ts';
import { VectorCache } from '../../functions/memory/store/vectors.ts';
import { nodeStorage } from '../../test/support/node-sql-storage.ts';

function flag(flags: string[], name: string): string | undefined {
  return flags.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

function summary(label: string, ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => (sorted[Math.floor(p * (sorted.length - 1))] ?? 0).toFixed(0);
  return `${label} p50 ${at(0.5)} ms, max ${at(1)} ms`;
}

/** Consolidation calls from `after` on (planned, not applied: the file stays as it was). */
async function walk(h: ModelHandle, after: number, windows: number): Promise<void> {
  const sets: number[] = [];
  const plans: number[] = [];
  let facts = 0;
  let changes = 0;
  for (let w = 0; w < windows; w++) {
    const t0 = performance.now();
    const set = consolidationSet(h.storage.sql, { lens: [['*']], after });
    const t1 = performance.now();
    const plan = await planConsolidation(localProvider(), set.facts);
    sets.push(t1 - t0);
    plans.push(performance.now() - t1);
    facts += set.facts.length;
    changes += plan.decisions.filter((d) => d.action !== 'keep').length;
    if (set.end) break;
    after = set.through;
  }
  console.log(
    `  ${sets.length} calls: ${summary('set', sets)}; ${summary('plan', plans)}; ` +
      `${(facts / sets.length).toFixed(0)} facts a call, ${changes} merges or supersedes`,
  );
}

export async function runScaleLong(flags: string[]): Promise<null> {
  const file = flag(flags, 'file');
  if (!file) throw new Error('scale-long needs --file=<a copy of a grown Context>');
  const windows = Number(flag(flags, 'windows') ?? 20);
  const jobs = Number(flag(flags, 'jobs') ?? 4);
  const storage = nodeStorage(file);
  applyMigrations(storage as unknown as DurableObjectStorage);
  const h: ModelHandle = {
    storage: storage as unknown as DurableObjectStorage,
    vectors: new VectorCache(),
  };
  const { n, top } = storage.sql
    .exec<{ n: number; top: number }>('SELECT count(*) AS n, max(seq) AS top FROM items')
    .one();
  console.log(`${n} items`);
  for (const [label, after] of [
    ['from the start', 0],
    ['from the middle', Math.floor(top / 2)],
    ['the newest', top - 2_000],
  ] as const) {
    console.log(`consolidation, ${label}:`);
    await walk(h, after, windows);
  }
  // Re-embedding to another model: a job is 8 batches of 64 (operations/reembed.ts).
  const runs: number[] = [];
  for (let j = 0; j < jobs; j++) {
    const t0 = performance.now();
    for (let b = 0; b < 8; b++) {
      const stale = staleItems(h, HASH_MODEL_ID, 64);
      const vectors = stale.map((s) => ({ seq: s.seq, values: embedHashed(s.content) }));
      storeVectors(h, HASH_MODEL_ID, vectors);
    }
    countStaleVectors(storage.sql, HASH_MODEL_ID);
    runs.push(performance.now() - t0);
  }
  console.log(`re-embedding: ${jobs} jobs of 512 items: ${summary('a job', runs)}`);
  // One migration call of each step that rewrites every row, from the middle of the Context (the
  // file is at the latest version, so the rows already hold what the steps add: this is their
  // reading and analysis, which is most of their cost).
  for (const step of SCHEMA_MIGRATIONS) {
    if (!step.fill) continue;
    const pieces: number[] = [];
    let after: number | null = Math.floor(top / 2);
    for (let rows = 0; rows < MIGRATION_ROWS_PER_CALL && after !== null; rows += FILL_PIECE) {
      const from: number = after;
      const t0 = performance.now();
      after = storage.transactionSync(() => step.fill?.(storage.sql, from, FILL_PIECE) ?? null);
      pieces.push(performance.now() - t0);
    }
    const total = pieces.reduce((a, b) => a + b, 0);
    console.log(
      `schema step ${step.version}: a call of ${pieces.length} pieces of ${FILL_PIECE} rows ` +
        `${(total / 1000).toFixed(2)} s; ${summary('a piece', pieces)}`,
    );
  }
  return null;
}
