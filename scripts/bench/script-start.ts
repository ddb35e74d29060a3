// What the Worker script costs an isolate before any request, for `npm run bench -- bundle`:
// the dry-run bundle evaluated in a fresh Node process (V8, as in workerd), with the few
// `cloudflare:workers` classes it imports stubbed, timed from import to evaluated, and its heap
// after a forced collection against the empty process's. Then, in another fresh process, what the
// first request that needs the read-only tables adds: decoding the two assets the build wrote and
// evaluating compromise and the thesaurus, which the bundle defers (tables/load-tables.ts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface StartCost {
  /** Milliseconds to compile and run the script's global scope. */
  globalScopeMs: number;
  /** JS heap the evaluated script holds after a full collection, in bytes. */
  heapBytes: number;
}

const STUB = [
  'export class DurableObject { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }',
  'export class WorkerEntrypoint { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }',
].join('\n');

const PROBE = `
const file = process.argv[1];
globalThis.gc(); globalThis.gc();
const before = process.memoryUsage().heapUsed;
const start = performance.now();
await import(file);
const ms = performance.now() - start;
globalThis.gc(); globalThis.gc();
console.log(JSON.stringify({ globalScopeMs: ms, heapBytes: process.memoryUsage().heapUsed - before }));
`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function probe(code: string, args: string[]): StartCost {
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', '--input-type=module', '-e', code, ...args],
    { encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as StartCost;
}

/** Median of `runs` fresh processes evaluating the bundled script. */
export function scriptStartCost(script: Buffer, runs = 5): StartCost {
  const dir = mkdtempSync(join(tmpdir(), 'engram-start-'));
  try {
    const stub = `data:text/javascript,${encodeURIComponent(STUB)}`;
    const file = join(dir, 'index.mjs');
    writeFileSync(file, script.toString('utf8').replaceAll('"cloudflare:workers"', `"${stub}"`));
    const results = Array.from({ length: runs }, () => probe(PROBE, [file]));
    return {
      globalScopeMs: median(results.map((r) => r.globalScopeMs)),
      heapBytes: median(results.map((r) => r.heapBytes)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const TABLES_PROBE = `
const [, root] = process.argv;
const { readFileSync } = await import('node:fs');
const { installWordVectors } = await import(root + '/functions/memory/retrieval/word-vector-table.ts');
const { installO200k, countO200k } = await import(root + '/functions/memory/models/o200k-tokenizer.ts');
const { TABLE_ASSETS } = await import(root + '/functions/memory/tables/load-tables.ts');
const { installCompromise } = await import(root + '/functions/memory/retrieval/lexicon.ts');
const { installThesaurus } = await import(root + '/functions/memory/retrieval/synonyms.ts');
const vectors = readFileSync(root + '/dist' + TABLE_ASSETS.wordVectors);
const ranks = readFileSync(root + '/dist' + TABLE_ASSETS.o200k, 'utf8');
globalThis.gc(); globalThis.gc();
const before = process.memoryUsage();
const start = performance.now();
installWordVectors(new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength));
installO200k(JSON.parse(ranks));
countO200k('warm the encoder once');
installCompromise((await import('compromise/two')).default);
installThesaurus((await import('synonyms/dictionary.js')).default);
const ms = performance.now() - start;
globalThis.gc(); globalThis.gc();
const after = process.memoryUsage();
console.log(JSON.stringify({ globalScopeMs: ms, heapBytes: after.heapUsed - before.heapUsed + after.arrayBuffers - before.arrayBuffers }));
`;

/** Median of `runs` fresh processes decoding the table assets in dist/ (needs `npm run build`). */
export function tableLoadCost(runs = 5): StartCost {
  const results = Array.from({ length: runs }, () => probe(TABLES_PROBE, [process.cwd()]));
  return {
    globalScopeMs: median(results.map((r) => r.globalScopeMs)),
    heapBytes: median(results.map((r) => r.heapBytes)),
  };
}
