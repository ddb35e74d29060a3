// The scale bench's markdown: one latency table and one footprint table, a row per vector width
// and Context size, under a paragraph saying how each figure was taken.
import type { IsolateHeap } from './inspector-heap.ts';
import { heapPlusBuffers } from './inspector-heap.ts';

export const MODES = ['bm25', 'vector', 'hybrid', 'hybrid_graph'] as const;
export type Mode = (typeof MODES)[number];

export interface SizeResult {
  /** Synthetic vector width, or null for the local model. */
  width: number | null;
  facts: number;
  /** Facts written in the step that reached this size, and the seconds it took. */
  stepFacts: number;
  stepSeconds: number;
  /** Milliseconds of the first query in each mode after the step's writes (untimed for warm). */
  firstAfterWrites: Record<Mode, number>;
  /** Seconds the object's background steps ran on after those first queries, before warm ones. */
  settleSeconds: number;
  /** p50/p95 over `answered` questions (fewer than asked when the mode's time ran out). */
  warm: Record<Mode, { p50: number; p95: number; answered: number }>;
  /** Milliseconds of the first query in each mode, each after its own restart. */
  cold: Record<Mode, number>;
  heap: IsolateHeap;
  diskBytes: number;
  /** Mean ANN recall@10 against the exact scan; null where the bench cannot know the vectors. */
  recall: number | null;
  /** Questions asked per mode. */
  questions: number;
  /** Answers whose mode differed from the one asked for. */
  otherMode: number;
}

export interface WidthResult {
  width: number | null;
  /** The isolate with the Context created and empty. */
  emptyHeap: IsolateHeap;
  sizes: SizeResult[];
  /** Non-2xx answers over the whole run at this width ("none" when there were none). */
  failures: string;
  questions: number;
}

const MIB = 2 ** 20;
const mib = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`;
const ms = (n: number) => (n < 10 ? n.toFixed(1) : Math.round(n).toString());
const facts = (n: number) => n.toLocaleString('en-US');
const widthName = (w: number | null) => (w === null ? 'local (100)' : `synthetic ${w}`);
const buffers = (h: IsolateHeap) =>
  h.backingStorageSize === null ? 'n/a' : mib(h.backingStorageSize);

function latencyRow(r: SizeResult): string {
  const rate = r.stepSeconds > 0 ? Math.round(r.stepFacts / r.stepSeconds) : 0;
  const warm = MODES.map((m) => {
    const { p50, p95, answered } = r.warm[m];
    return `${ms(p50)} / ${ms(p95)}${answered < r.questions ? ` (${answered} answered)` : ''}`;
  });
  const cold = MODES.map((m) => ms(r.cold[m])).join(' / ');
  const first = MODES.map((m) => ms(r.firstAfterWrites[m])).join(' / ');
  return `| ${widthName(r.width)} | ${facts(r.facts)} | ${rate.toLocaleString('en-US')} | ${warm.join(' | ')} | ${cold} | ${first} | ${r.settleSeconds.toFixed(0)} |`;
}

function footprintRow(r: SizeResult, failures: string): string {
  const recall = r.recall === null ? 'n/a' : r.recall.toFixed(3);
  const perFact =
    r.facts > 0 ? `${Math.round(r.diskBytes / r.facts).toLocaleString('en-US')} B` : '';
  return `| ${widthName(r.width)} | ${facts(r.facts)} | ${mib(r.heap.usedSize)} | ${buffers(r.heap)} | **${mib(heapPlusBuffers(r.heap))}** | ${perFact} | ${recall} | ${r.otherMode} | ${failures} |`;
}

/** The section the bench framework writes into docs/BENCHMARKS.md. */
export function scaleReport(results: readonly WidthResult[]): string {
  const questions = results[0]?.questions ?? 0;
  const lines = [
    '### A Context at scale (`npm run bench -- scale`)',
    '',
    `One Context per vector width grown through \`POST /facts/batch\` (batches of 100, a few in flight) under \`wrangler dev\` with persisted state; facts composed from vocabularies (sixteen sentence shapes, people, places, teams, projects, dates; four scope shapes). After writes: the first query in each mode once the step's writes are done. Warm: once the object's background steps after the writes are done (its database files unchanged for 3 s; seconds waited in the last column), ${questions} different questions per mode, sequential. Cold: the first query in each mode after its own restart of \`wrangler dev\` on the same state (one restart per mode, so each is truly cold). Heap: the Worker isolate (the Context's object included) through the V8 inspector after a forced GC: live JS heap plus ArrayBuffer backing stores (typed arrays). Disk: the Context object's SQLite files (with -wal) over its facts. Recall: with synthetic vectors the bench recomputes every fact's vector and takes the exact top 10 by cosine among the facts each question's lens reads; \`vector\` mode's top 10 is scored against it (ties at the 10th score count as found). The local model re-scores its vector list by sentence, so it has no exact reference (n/a).`,
    '',
    '| vectors | facts | ingest (facts/s, last step) | bm25 p50 / p95 (ms) | vector p50 / p95 | hybrid p50 / p95 | hybrid_graph p50 / p95 | cold first query (ms): bm25 / vector / hybrid / hybrid_graph | first query after the writes (ms), same order | background steps after the writes (s) |',
    '|---|---:|---:|---|---|---|---|---|---|---:|',
    ...results.flatMap((w) => w.sizes.map(latencyRow)),
    '',
    '| vectors | facts | JS heap used | ArrayBuffer stores | heap + buffers | disk / fact | ANN recall@10 vs exact | answers in another mode | non-2xx (whole run) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...results.flatMap((w) => [
      `| ${widthName(w.width)} | 0 (empty Context) | ${mib(w.emptyHeap.usedSize)} | ${buffers(w.emptyHeap)} | **${mib(heapPlusBuffers(w.emptyHeap))}** | | | | |`,
      ...w.sizes.map((r) => footprintRow(r, w.failures)),
    ]),
  ];
  return lines.join('\n');
}
