// Bundle part of `npm run bench` (`npm run bench -- bundle`; needs `npm run build` for dist/).
// The Worker's upload size as `wrangler deploy --dry-run` bundles it, against Cloudflare's
// compressed-size limits (3 MB Workers Free, 10 MB Workers Paid); what the script costs an isolate
// before any request (global-scope time and heap, script-start.ts) and what the first request that
// needs the read-only tables adds (functions/memory/tables/load-tables.ts); then what the local
// embedder costs at run time against the hashed n-gram model it replaced (`local-hash-v1`),
// measured in this process on the recall set's turns.
import { readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { embedHashed } from '../../functions/memory/retrieval/local-embeddings.ts';
import { embedSif } from '../../functions/memory/retrieval/sif-embeddings.ts';
import { wordVectorTable } from '../../functions/memory/retrieval/word-vector-table.ts';
import { TABLE_ASSETS } from '../../functions/memory/tables/load-tables.ts';
import type { RecallSet } from '../../test/fixtures/recall-conversations/generate.ts';
import { bundleWorker, FREE_PLAN_SCRIPT_LIMIT } from '../../test/support/worker-bundle.ts';
import { firstRequestCost } from './first-request.ts';
import { scriptStartCost, tableLoadCost } from './script-start.ts';

const MB = 1_000_000;
const MIB = 1024 * 1024;

function timePerText(embed: (text: string) => Float32Array, texts: string[]): number {
  for (const t of texts.slice(0, 200)) embed(t); // warm up
  const start = performance.now();
  for (const t of texts) embed(t);
  return ((performance.now() - start) * 1000) / texts.length;
}

export async function runBundleBench(): Promise<string> {
  const loadBefore = loadavg()[0] ?? 0;
  const { script, gzipBytes } = bundleWorker();
  const start = scriptStartCost(script);
  const tables = tableLoadCost();
  const first = await firstRequestCost();
  const assets = Object.values(TABLE_ASSETS).map((path) => {
    const file = join('dist', path);
    return { path, bytes: statSync(file).size, gzip: gzipSync(readFileSync(file)).length };
  });

  const words = wordVectorTable().rows.size;
  const set = JSON.parse(
    readFileSync('test/fixtures/recall-conversations/recall-set.json', 'utf8'),
  ) as RecallSet;
  const texts = set.conversations.flatMap((c) => c.turns.map((t) => `${t.speaker}: ${t.text}`));
  const sifUs = timePerText(embedSif, texts);
  const hashUs = timePerText((t) => embedHashed(t), texts);
  const loadAfter = loadavg()[0] ?? 0;

  const mb = (bytes: number) => (bytes / MB).toFixed(2);
  const mib = (bytes: number) => (bytes / MIB).toFixed(1);
  return [
    '## Worker bundle, start-up and the local embedder',
    '',
    'Command: `npm run bench -- bundle` (after `npm run build`). The Worker script as',
    '`wrangler deploy --dry-run` bundles it, gzip as wrangler computes its “Total Upload” figure',
    '(Cloudflare’s limit counts the compressed upload; `npm test` fails past 3 MB,',
    'test/build/worker-bundle.test.ts). The word vectors and the o200k_base ranks are static',
    'assets, not script (docs/self-hosting.md). Start-up: the bundle evaluated in a fresh Node',
    'process (V8, `cloudflare:workers` stubbed), median of 5; heap after a forced collection. The',
    'isolate rows read workerd itself under `wrangler dev` through the inspector after a forced',
    'collection, as the scale bench does (JS heap plus ArrayBuffer stores); `/health` is the only',
    'request before the first.',
    '',
    '| measure | result | peer | ratio |',
    '|---|---|---|---|',
    `| Worker script, gzip | ${mb(gzipBytes)} MB (raw ${mb(script.length)} MB) | Workers Free limit 3 MB | ${(gzipBytes / FREE_PLAN_SCRIPT_LIMIT).toFixed(2)}× |`,
    `| Worker script, gzip | ${mb(gzipBytes)} MB | Workers Paid limit 10 MB | ${(gzipBytes / (10 * MB)).toFixed(2)}× |`,
    ...assets.map(
      (a) =>
        `| table asset \`${a.path}\` | ${mb(a.bytes)} MB (gzip ${mb(a.gzip)} MB) | static asset file limit 25 MiB | ${(a.bytes / (25 * MIB)).toFixed(2)}× |`,
    ),
    `| global scope, compile and run | ${start.globalScopeMs.toFixed(0)} ms | start-up limit 1 s | ${(start.globalScopeMs / 1000).toFixed(2)}× |`,
    `| script heap after evaluation (Node probe) | ${mib(start.heapBytes)} MiB | target 16 MiB | ${(start.heapBytes / (16 * MIB)).toFixed(2)}× |`,
    `| isolate heap + buffers before any Context (\`wrangler dev\`, inspector) | ${mib(first.heapBeforeContext)} MiB | target 16 MiB | ${(first.heapBeforeContext / (16 * MIB)).toFixed(2)}× |`,
    `| the same after the first Context (its object holds the tables) | ${mib(first.heapAfterFirstContext)} MiB | isolate memory 128 MB | ${(first.heapAfterFirstContext / (128 * MB)).toFixed(2)}× |`,
    `| first request needing the tables: decode, once per isolate | ${tables.globalScopeMs.toFixed(0)} ms | | |`,
    `| first Context creation in \`wrangler dev\` (its object loads the tables) | ${first.firstMs.toFixed(0)} ms | later creations, median of 5 | ${(first.firstMs / first.laterMs).toFixed(2)}× (${first.laterMs.toFixed(0)} ms) |`,
    `| heap the decoded tables add (JS heap + array buffers) | ${mib(tables.heapBytes)} MiB | isolate memory 128 MB | ${(tables.heapBytes / (128 * MB)).toFixed(2)}× |`,
    `| embedding one turn, \`local-sif-v2\` (${words.toLocaleString('en')} words) | ${sifUs.toFixed(1)} µs | \`local-hash-v1\` ${hashUs.toFixed(1)} µs | ${(sifUs / hashUs).toFixed(2)}× |`,
    '',
    `Per-turn times are the mean over the recall set’s ${texts.length.toLocaleString('en')} turns, in Node (not workerd). The table decode row imports compromise and the thesaurus from their package files (in the bundle they are already parsed), so it is an upper bound. Load average (1 min) of the machine: ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after: times scale with it, sizes and heap do not.`,
  ].join('\n');
}
