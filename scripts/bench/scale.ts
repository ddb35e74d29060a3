// Scale part of `npm run bench` (`npm run bench -- scale [--sizes=10000,100000,1000000]
// [--dims=local,768,1024] [--questions=50] [--concurrency=4]`; needs `npm run build`; run only
// when named, since its default grows a Context to a million facts). Issue 38, item 8.
//
// Method. For each vector width (`local`: the local model, 100 wide; a number: synthetic vectors
// of that width from a fake OpenAI-compatible embeddings endpoint on loopback, fake-embeddings*)
// one `wrangler dev` runs on a persist directory of its own under the temp folder, so that it can
// be restarted on the same data. One Context is grown through the real API, `POST /facts/batch`
// (batches of 100, `--concurrency` in flight, scale-client.ts), to each size in turn; the facts
// are composed from vocabularies and rebuilt from their number (scale-facts.ts). At each size:
//   ingest: facts/s of the step that reached the size;
//   after writes: the first query in each mode after the step (what a bulk write leaves to do);
//   warm: p50/p95 of `--questions` different questions per mode, sequential;
//   heap: the isolate (Worker and the Context's object share it under wrangler dev) read through
//     the V8 inspector after a forced GC: used JS heap plus ArrayBuffer backing stores
//     (inspector-heap.ts), not the process's resident set;
//   disk: the Context object's SQLite files over its facts (scale-disk.ts), read while stopped;
//   cold: for each mode, `wrangler dev` is stopped and started again on the same state and the
//     first query in that mode is timed: one restart per mode, so each is truly cold;
//   recall: synthetic widths: the exact top 10 by cosine among the facts each question's
//     lens reads, computed here in one pass that recomputes every fact's vector (scale-recall.ts),
//     against `vector` mode's top 10 (with a non-local model that mode is the pure vector list);
//     the local model (whose `vector` mode re-scores by sentence): the IVF's own top 10 against
//     the exact scan, read from the Context's database while stopped (scale-ann.ts `annOf`);
//   failures: every answer's status is tallied; non-2xx over the whole run, plus lines of
//     wrangler's output that say an object was reset.
// Every loop is bounded by its count, every request by a timeout, a mode's warm questions by ten
// minutes (the table says how many were answered when fewer); the servers are stopped and the
// state removed on the way out, also on an error or Ctrl-C.
import type { DevServer } from '../../test/support/wrangler-dev.ts';
import { percentile } from './dev-api.ts';
import { startFakeEmbeddings, type FakeEmbeddings } from './fake-embeddings-server.ts';
import { isolateHeapAfterGc, type IsolateHeap } from './inspector-heap.ts';
import { parseScaleArgs, type ScaleOptions } from './scale-args.ts';
import { grow, provision, StatusTally, timedQuery, type Agent } from './scale-client.ts';
import { contextDatabaseBytes, contextDatabaseFile } from './scale-disk.ts';
import { ScaleServer } from './scale-server.ts';
import { settleQuiet } from './scale-settle.ts';
import { questionAt, type ScaleQuestion } from './scale-facts.ts';
import { vectorRecall } from './scale-recall.ts';
import { annOf } from './scale-ann.ts';
import { nodeStorage } from '../../test/support/node-sql-storage.ts';
import {
  MODES,
  scaleReport,
  type Mode,
  type SizeResult,
  type WidthResult,
} from './scale-report.ts';

/** Per mode and size, the warm questions stop being asked after this long (a failing store). */
const WARM_BUDGET_MS = 10 * 60_000;
/** Settings that keep the bench's own traffic from being shed or rate limited. */
const LOAD_VARS = { RATE_LIMIT_PER_MINUTE: '100000000', MAX_IN_FLIGHT: '100000' };
async function heapOf(server: DevServer): Promise<IsolateHeap> {
  const poke = async () => {
    await (await fetch(`${server.url}/health`)).arrayBuffer();
  };
  return isolateHeapAfterGc(server.inspectorPort, poke);
}

interface WarmRun {
  first: Record<Mode, number>;
  /** Seconds the object's background steps ran on after the first queries. */
  settleSeconds: number;
  warm: SizeResult['warm'];
  otherMode: number;
  /** `vector` mode's hits per question (empty for a failed answer). */
  vectorHits: number[][];
}

async function warmQueries(
  server: DevServer,
  agent: Agent,
  questions: readonly ScaleQuestion[],
  tally: StatusTally,
  state: string,
): Promise<WarmRun> {
  const run: WarmRun = {
    first: { bm25: 0, vector: 0, hybrid: 0, hybrid_graph: 0 },
    settleSeconds: 0,
    warm: {
      bm25: { p50: 0, p95: 0, answered: 0 },
      vector: { p50: 0, p95: 0, answered: 0 },
      hybrid: { p50: 0, p95: 0, answered: 0 },
      hybrid_graph: { p50: 0, p95: 0, answered: 0 },
    },
    otherMode: 0,
    vectorHits: [],
  };
  // The first query in each mode right after the writes: it pays for whatever they left to do.
  for (const [i, mode] of MODES.entries())
    run.first[mode] = (
      await timedQuery(server, agent, questionAt(questions.length + i), mode, tally)
    ).ms;
  // Warm is a Context at rest: the object's background steps (IVF training, back-fill, packing,
  // an alarm after every write batch) may run on after a bulk write, and a question asked
  // meanwhile waits for them; so the warm questions wait until its database files have been quiet
  // for 3 s. In stop 51's runs nothing was written then at any size, yet bm25's p50 at a million
  // facts was 32 ms with the wait against 49 when its questions followed its first query at once:
  // the machine was still busy with the growth (likely the kernel writing back its 1.6 GB).
  run.settleSeconds = await settleQuiet(state);
  for (const mode of MODES) {
    const samples: number[] = [];
    const until = performance.now() + WARM_BUDGET_MS;
    for (const question of questions) {
      if (performance.now() > until) {
        if (mode === 'vector') run.vectorHits.push([]);
        continue;
      }
      const answer = await timedQuery(server, agent, question, mode, tally);
      if (answer.status !== 200) {
        if (mode === 'vector') run.vectorHits.push([]);
        continue;
      }
      samples.push(answer.ms);
      if (answer.mode !== mode) run.otherMode += 1;
      if (mode === 'vector') run.vectorHits.push(answer.hits);
    }
    run.warm[mode] = {
      p50: percentile(samples, 50),
      p95: percentile(samples, 95),
      answered: samples.length,
    };
  }
  return run;
}

/**
 * The cold first query per mode, each after its own restart; returns ms, the disk bytes and, with
 * `stopped`, what it reads of the database while no workerd has it open.
 */
async function coldQueries<T>(
  bench: ScaleServer,
  agent: Agent,
  questions: number,
  tally: StatusTally,
  stopped: () => T,
): Promise<{ cold: Record<Mode, number>; diskBytes: number; read: T }> {
  const cold: Record<Mode, number> = { bm25: 0, vector: 0, hybrid: 0, hybrid_graph: 0 };
  let diskBytes = 0;
  let read: T | undefined;
  for (const [i, mode] of MODES.entries()) {
    await bench.stop();
    // Read while no workerd holds the database open: its -wal is as the last run left it.
    if (i === 0) {
      diskBytes = contextDatabaseBytes(bench.state);
      read = stopped();
    }
    const server = await bench.start();
    const question = questionAt(questions + MODES.length + i);
    cold[mode] = (await timedQuery(server, agent, question, mode, tally)).ms;
  }
  if (read === undefined) throw new Error('scale: no cold query ran');
  return { cold, diskBytes, read };
}

/**
 * The local model's ANN recall@10 against the exact scan, read from the Context's database in
 * this process (scale-ann.ts `annOf`: `ivfSearch` as a `vector` search probes, against one pass
 * over every vector): its `vector` mode re-scores by sentence, so the API's answers cannot say.
 * Null when the Context has no IVF index (an exact scan).
 */
function localAnnRecall(state: string, questions: number): number | null {
  const file = contextDatabaseFile(state);
  if (file === null) return null;
  const db = nodeStorage(file, { readOnly: true });
  try {
    const ann = annOf(db.sql, questions, 10);
    return ann.lists.length === 0 ? null : ann.at().recall;
  } finally {
    db.close();
  }
}

function progressPrinter(label: string, to: number): (written: number) => void {
  let shown = Date.now();
  return (written) => {
    // Every 30 s; batches finish out of order, so the last one in flight may not be `to`.
    if (Date.now() - shown < 30_000) return;
    shown = Date.now();
    console.log(`  ${label}: ${written.toLocaleString('en-US')} / ${to.toLocaleString('en-US')}`);
  };
}

async function runWidth(width: number | null, options: ScaleOptions): Promise<WidthResult> {
  const label = width === null ? 'local' : `synthetic-${width}`;
  let fake: FakeEmbeddings | null = null;
  const bench = await ScaleServer.create(LOAD_VARS);
  try {
    if (width !== null) {
      fake = await startFakeEmbeddings(width, label);
      Object.assign(bench.vars, {
        AI_PROVIDER: 'openai',
        OPENAI_BASE_URL: fake.baseUrl,
        OPENAI_EMBEDDING_MODEL: label,
      });
    }
    const tally = new StatusTally();
    let server = await bench.start();
    const agent = await provision(server, `scale-${label}`);
    const emptyHeap = await heapOf(server);
    const questions = Array.from({ length: options.questions }, (_, q) => questionAt(q));
    const sizes: SizeResult[] = [];
    let have = 0;
    for (const size of options.sizes) {
      console.log(`scale: ${label}, growing to ${size.toLocaleString('en-US')} facts`);
      const progress = progressPrinter(label, size);
      const seconds = await grow(server, agent, have, size, options.concurrency, tally, progress);
      const warm = await warmQueries(server, agent, questions, tally, bench.state);
      const heap = await heapOf(server);
      const { cold, diskBytes, read } = await coldQueries(
        bench,
        agent,
        options.questions,
        tally,
        () => (width === null ? localAnnRecall(bench.state, options.questions) : null),
      );
      server = bench.server ?? (await bench.start());
      const recall = width === null ? read : vectorRecall(width, size, questions, warm.vectorHits);
      const result: SizeResult = {
        width,
        facts: size,
        stepFacts: size - have,
        stepSeconds: seconds,
        firstAfterWrites: warm.first,
        settleSeconds: warm.settleSeconds,
        warm: warm.warm,
        cold,
        heap,
        diskBytes,
        recall,
        questions: options.questions,
        otherMode: warm.otherMode,
      };
      console.log(`scale: ${label} at ${size}: ${JSON.stringify(result)}`);
      sizes.push(result);
      have = size;
    }
    await bench.stop();
    if (fake !== null) console.log(`scale: fake embeddings ${JSON.stringify(fake.stats())}`);
    const resets = bench.resetLines === 0 ? '' : `; ${bench.resetLines} reset line(s) in the log`;
    return {
      width,
      emptyHeap,
      sizes,
      failures: `${tally.failures()}${resets}`,
      questions: options.questions,
    };
  } catch (err) {
    if (bench.server !== null) console.error(bench.server.log());
    throw err;
  } finally {
    await bench.close();
    await fake?.stop();
  }
}

export async function runScaleBench(args: string[] = process.argv.slice(2)): Promise<string> {
  const options = parseScaleArgs(args);
  const results: WidthResult[] = [];
  // Ctrl-C: leave through the normal exit, whose handler stops the running wrangler dev.
  const interrupt = () => process.exit(130);
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    for (const width of options.widths) results.push(await runWidth(width, options));
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
  }
  return scaleReport(results);
}
