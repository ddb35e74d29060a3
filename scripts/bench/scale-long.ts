// Long work on a large Context, without wrangler: consolidation calls, re-embedding jobs and one
// migration call of each schema step that rewrites every row, each timed, over node:sqlite in
// this process on a Context kept in a file (grow one with `npm run bench -- scale-profile
// --sizes=1000000 --file=F`; this part writes to it, so give it a copy). What a call costs is
// what a request's CPU limit sees. Beside the consolidation calls, the same windows gathered the
// way the first version did (a bm25 search a fact, `relatedFacts`), as the baseline.
//   npm run bench -- scale-long --file=/tmp/ctx.db [--windows=10] [--jobs=4] [--import-into=/tmp/new.db]
//     [--turns=1000000]
// `--turns=N` adds N session turns without their `valid_from` (as a Context below schema step 9
// holds them) and times step 9's first migration call over them, against the one `UPDATE` of
// every turn the step was before it went in pieces (rolled back).
import { planConsolidation } from '../../functions/memory/inference/consolidate.ts';
import { localProvider } from '../../functions/memory/models/local-provider.ts';
import { embedHashed, HASH_MODEL_ID } from '../../functions/memory/retrieval/local-embeddings.ts';
import { consolidationSet, WINDOW } from '../../functions/memory/store/consolidation-set.ts';
import { factWindow } from '../../functions/memory/store/fact-window.ts';
import { MIGRATION_ROWS_PER_CALL } from '../../functions/memory/store/migrate-fenced.ts';
import { countStaleVectors } from '../../functions/memory/store/model-paths.ts';
import {
  relatedFacts,
  staleItems,
  storeVectors,
  type ModelHandle,
} from '../../functions/memory/store/model-rpc.ts';
import { aliasesStep } from '../../functions/memory/store/schema/aliases.ts';
import {
  conversationTime,
  NEXT_FTS,
} from '../../functions/memory/store/schema/conversation-time.ts';
import { SCHEMA_MIGRATIONS } from '../../functions/memory/store/schema/index.ts';
import { turnTime } from '../../functions/memory/store/schema/turn-time.ts';
import { applyMigrations, FILL_PIECE } from '../../functions/memory/store/schema/runner.ts';
import { VectorCache } from '../../functions/memory/store/vectors.ts';
import { nodeStorage } from '../../test/support/node-sql-storage.ts';
import { copyContext } from './scale-long-import.ts';

const ALL = [['*']];

function flag(flags: string[], name: string): string | undefined {
  return flags.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

function at(ms: number[], p: number): string {
  const sorted = [...ms].sort((a, b) => a - b);
  return (sorted[Math.floor(p * (sorted.length - 1))] ?? 0).toFixed(0);
}

const p50max = (ms: number[]) => `${at(ms, 0.5)} / ${at(ms, 1)}`;

/**
 * What step 7's last piece does besides its rows, timed on the whole Context and rolled back:
 * the old index dropped, the new one renamed in, its vocabulary made again, the session index
 * built (its columns exist here, so it is built under another name).
 */
function swapMs(storage: { sql: SqlStorage; transactionSync<T>(fn: () => T): T }): number {
  const t0 = performance.now();
  let ms = 0;
  try {
    storage.transactionSync(() => {
      const sql = storage.sql;
      sql.exec('DROP TABLE items_fts_vocab');
      sql.exec('DROP TABLE items_fts');
      sql.exec(`ALTER TABLE ${NEXT_FTS} RENAME TO items_fts`);
      sql.exec(`CREATE VIRTUAL TABLE items_fts_vocab USING fts5vocab(items_fts, 'row')`);
      sql.exec(
        'CREATE INDEX items_session_position_swap ON items(session_label, position) WHERE session_label IS NOT NULL',
      );
      ms = performance.now() - t0;
      throw new Error('rolled back');
    });
  } catch {
    // The rollback is the point: the file stays whole for what comes next.
  }
  return ms;
}

interface Walk {
  gather: number[];
  plan: number[];
  facts: number;
  changes: number;
}

/** Consolidation calls from `after` on (planned, not applied: the file stays as it was). */
async function walk(h: ModelHandle, after: number, windows: number, baseline: boolean) {
  const out: Walk = { gather: [], plan: [], facts: 0, changes: 0 };
  const sql = h.storage.sql;
  for (let w = 0; w < windows; w++) {
    const t0 = performance.now();
    let set = consolidationSet(sql, { lens: ALL, after });
    if (baseline) {
      const part = factWindow(sql, { lens: ALL, kinds: ['fact'], from: after, limit: WINDOW });
      const ids = new Set(part.facts.map((f) => f.id));
      const related = relatedFacts(
        h,
        part.facts.map((f) => f.content),
        ALL,
      ).filter((f) => !ids.has(f.id));
      set = { ...part, facts: [...part.facts, ...related] };
    }
    const t1 = performance.now();
    const plan = await planConsolidation(localProvider(), set.facts);
    out.gather.push(t1 - t0);
    out.plan.push(performance.now() - t1);
    out.facts += set.facts.length;
    out.changes += plan.decisions.filter((d) => d.action !== 'keep').length;
    if (set.end) break;
    after = set.through;
  }
  return out;
}

export async function runScaleLong(flags: string[]): Promise<string> {
  const file = flag(flags, 'file');
  if (!file) throw new Error('scale-long needs --file=<a copy of a grown Context>');
  const windows = Number(flag(flags, 'windows') ?? 10);
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
  const rows: string[] = [];
  for (const [label, after] of [
    ['from the start', 0],
    ['from the middle', Math.floor(top / 2)],
    ['the newest', top - 2_000],
  ] as const) {
    const now = await walk(h, after, windows, false);
    const calls = now.gather.length;
    rows.push(
      `| consolidation call, ${label} (${calls} calls) | ${p50max(now.gather)} | ${p50max(now.plan)} | ${(now.facts / calls).toFixed(0)} facts a call, ${now.changes} merges or supersedes |`,
    );
    console.log(rows[rows.length - 1]);
  }
  const before = await walk(h, Math.floor(top / 2), Math.min(windows, 3), true);
  rows.push(
    `| baseline: the same, from the middle, gathered by a bm25 search a fact (${before.gather.length} calls) | ${p50max(before.gather)} | ${p50max(before.plan)} | ${(before.facts / before.gather.length).toFixed(0)} facts a call, ${before.changes} merges or supersedes |`,
  );
  console.log(rows[rows.length - 1]);
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
  rows.push(
    `| re-embedding job (${jobs} jobs of 512 items, local hashed embedder) | ${p50max(runs)} | | |`,
  );
  // One migration call of each step that rewrites every row, from the middle of the Context (the
  // file is at the latest version, so the rows already hold what the steps add: this is their
  // reading and analysis, which is most of their cost).
  // Step 13 (aliases) walks conversation turns, which the scale bench's facts are not; step 9
  // fills session turns (`--turns`, below).
  for (const step of SCHEMA_MIGRATIONS) {
    if (!step.fill || step.version === aliasesStep.version || step.version === turnTime.version)
      continue;
    // Step 7 fills an index beside `items_fts` (`up` makes it; dropped after its pieces).
    const beside = step.version === conversationTime.version;
    if (beside) storage.transactionSync(() => step.up(storage.sql));
    const pieces: number[] = [];
    let after: string | null = String(Math.floor(top / 2));
    for (let done = 0; done < MIGRATION_ROWS_PER_CALL && after !== null; done += FILL_PIECE) {
      const from: string = after;
      const t0 = performance.now();
      after = storage.transactionSync(() => step.fill?.(storage.sql, from, FILL_PIECE) ?? null);
      pieces.push(performance.now() - t0);
    }
    const total = pieces.reduce((a, b) => a + b, 0);
    rows.push(
      `| schema step ${step.version}, one migration call (${pieces.length} pieces of ${FILL_PIECE} rows) | ${total.toFixed(0)} | | a piece ${p50max(pieces)} ms |`,
    );
    if (beside) {
      rows.push(
        `| schema step 7's swap (its last piece's statements, rolled back) | ${swapMs(storage).toFixed(0)} | | |`,
      );
      storage.sql.exec(`DROP TABLE ${NEXT_FTS}`);
    }
  }
  const turns = Number(flag(flags, 'turns') ?? 0);
  if (turns > 0) rows.push(...turnTimeRows(storage, turns));
  // A copy of the whole Context through export and import, into a fresh file (`--import-into`).
  const into = flag(flags, 'import-into');
  if (into) {
    const copy = await copyContext(storage.sql, into);
    const mb = copy.bytes / 1e6;
    rows.push(
      `| export to import, the whole Context (${copy.rows.toLocaleString('en-US')} rows, ${mb.toFixed(0)} MB, ${copy.seconds.toFixed(0)} s, ${(mb / copy.seconds).toFixed(1)} MB/s) | export page ${p50max(copy.pages)} (${copy.pages.length}); import batch ${p50max(copy.batches)} (${copy.batches.length}) | | finishImport ${copy.finish.toFixed(0)} ms |`,
    );
    console.log(rows[rows.length - 1]);
  }
  return [
    `### Long work on a ${n.toLocaleString('en-US')}-item Context (\`npm run bench -- scale-long --file=<a copy> --windows=${windows} --jobs=${jobs}${into ? ' --import-into=<a new file>' : ''}\`)`,
    '',
    'In process over node:sqlite on a copy of the `scale-profile` bench’s file; ms, p50 / max. A consolidation call gathers a window of 100 facts and the facts that could be their twins or other values (consolidation-candidates.ts), then plans them with the local provider; the baseline gathers the same windows the way the first version did.',
    '',
    '| work | ms (gather, or the whole call) | plan ms | |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/**
 * Step 9 over `count` session turns left without `valid_from`: one migration call from the start
 * (MIGRATION_ROWS_PER_CALL rows in pieces), and the whole `UPDATE` it was before (rolled back).
 */
function turnTimeRows(storage: ReturnType<typeof nodeStorage>, count: number): string[] {
  const sql = storage.sql;
  const now = '2024-01-01T00:00:00.000Z';
  sql.exec(
    "INSERT OR IGNORE INTO sessions (id, metadata, created_at, updated_at) VALUES ('scale-long', NULL, ?, ?)",
    now,
    now,
  );
  for (let i = 0; i < count; i += 10_000)
    storage.transactionSync(() => {
      for (let j = i; j < Math.min(count, i + 10_000); j++)
        sql.exec(
          'INSERT INTO turns (id, session_id, role, content, created_at) VALUES (?, ?, ?, ?, ?)',
          `turn_scale_long_${j}`,
          'scale-long',
          j % 2 === 0 ? 'user' : 'assistant',
          `Turn ${j}: the launch review moved to Thursday after the budget call.`,
          new Date(Date.UTC(2024, 0, 1) + j * 1000).toISOString(),
        );
    });
  const pieces: number[] = [];
  let after: string | null = '';
  for (let done = 0; done < MIGRATION_ROWS_PER_CALL && after !== null; done += FILL_PIECE) {
    const from: string = after;
    const t0 = performance.now();
    after = storage.transactionSync(() => turnTime.fill?.(sql, from, FILL_PIECE) ?? null);
    pieces.push(performance.now() - t0);
  }
  const total = pieces.reduce((a, b) => a + b, 0);
  const t0 = performance.now();
  sql.exec('BEGIN');
  sql.exec('UPDATE turns SET valid_from = created_at');
  const whole = performance.now() - t0;
  sql.exec('ROLLBACK');
  return [
    `| schema step 9 over ${count.toLocaleString('en-US')} turns, one migration call (${pieces.length} pieces of ${FILL_PIECE} rows) | ${total.toFixed(0)} | | a piece ${p50max(pieces)} ms |`,
    `| baseline: step 9 as one \`UPDATE\` of every turn (rolled back) | ${whole.toFixed(0)} | | |`,
  ];
}
