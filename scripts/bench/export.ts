// Export part of `npm run bench` (also alone: `node scripts/bench/export.ts --sizes=10,100`;
// needs `npm run build`). Against a real `wrangler dev` (test/support/wrangler-dev.ts), for each
// size in MB (`--sizes=10,100,200,1000`, default 10,100,200):
//   fill: a generated export of that size (facts, document chunks, their FTS rows and vectors)
//         streamed into `POST /contexts/{id}/import`, which exercises the streamed import;
//   export: `GET /contexts/{id}/export` streamed to a file;
//   round trip: that export imported into a new Context and exported again: identical rows
//         (same per-table counts and the same sha256 over the row lines).
// Peak memory is the resident set (VmRSS) of every process under `wrangler dev` whose name is
// workerd, polled every 100 ms during each step: the Worker, its Durable Objects and the local
// storage engine together, so an upper bound on the Worker's own memory.
import { createHash } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  createWriteStream,
  openSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { startDevServer, type DevServer } from '../../test/support/wrangler-dev.ts';
import { workerdRssBytes } from './workerd-processes.ts';

const MB = 1024 * 1024;

function sizesFromArgs(): number[] {
  const arg = process.argv.find((a) => a.startsWith('--sizes='));
  const sizes = (arg?.slice('--sizes='.length) ?? '10,100,200')
    .split(',')
    .map((s) => Number.parseInt(s, 10))
    .filter((n) => Number.isInteger(n) && n > 0);
  if (sizes.length === 0) throw new Error('--sizes=10,100,200: sizes in MB');
  return sizes;
}

async function measured<T>(
  server: DevServer,
  step: () => Promise<T>,
): Promise<{ value: T; seconds: number; peakMb: number }> {
  let peak = 0;
  const poll = () => {
    if (server.pid !== null) peak = Math.max(peak, workerdRssBytes(server.pid));
  };
  poll();
  const timer = setInterval(poll, 100);
  const started = performance.now();
  try {
    const value = await step();
    return { value, seconds: (performance.now() - started) / 1000, peakMb: peak / MB };
  } finally {
    clearInterval(timer);
    poll();
  }
}

// --- HTTP ---------------------------------------------------------------------------------------

async function call(server: DevServer, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${server.bootstrapKey}`);
  const res = await fetch(`${server.url}${path}`, { ...init, headers });
  if (!res.ok)
    throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
  return res;
}

async function createContext(server: DevServer, id: string): Promise<void> {
  await call(server, '/api/v1/contexts', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id }),
  });
}

async function importFile(server: DevServer, id: string, file: string): Promise<void> {
  const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
  const res = await call(server, `/api/v1/contexts/${id}/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body,
    duplex: 'half',
  } as RequestInit);
  await res.text();
}

async function exportFile(server: DevServer, id: string, file: string): Promise<void> {
  const res = await call(server, `/api/v1/contexts/${id}/export`);
  if (!res.body) throw new Error('export: no body');
  await pipeline(Readable.fromWeb(res.body as never), createWriteStream(file));
}

interface Trailer {
  rows: number;
  counts: Record<string, number>;
  sha256: string;
}

/** The end line of an export file (read from its tail only). */
function trailerOf(file: string): Trailer {
  const size = statSync(file).size;
  const tail = Buffer.alloc(Math.min(size, 64 * 1024));
  const fd = openSync(file, 'r');
  try {
    readSync(fd, tail, 0, tail.length, size - tail.length);
  } finally {
    closeSync(fd);
  }
  const last = tail.toString('utf8').trim().split('\n').at(-1) ?? '{}';
  return JSON.parse(last) as Trailer;
}

// --- generated data -----------------------------------------------------------------------------

interface Template {
  header: Record<string, unknown>;
  meta: string[];
  item: Record<string, unknown>;
  vector: { model_id: string; dims: number };
}

/** The row shapes of a real Context at the latest schema (one fact written through the API). */
async function template(server: DevServer, dir: string): Promise<Template> {
  await createContext(server, 'bench-export-template');
  await call(server, '/api/v1/bench-export-template/facts', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ content: 'Template fact for the export benchmark.' }),
  });
  const file = join(dir, 'template.ndjson');
  await exportFile(server, 'bench-export-template', file);
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  const parsed = lines.map(
    (l) => JSON.parse(l) as { table?: string; row?: Record<string, unknown> },
  );
  const row = (t: string) => parsed.find((l) => l.table === t)?.row;
  const item = row('items');
  const vector = row('item_vectors');
  if (!item || !vector) throw new Error('template export has no items or item_vectors row');
  return {
    header: parsed[0] as Record<string, unknown>,
    meta: lines.filter((l) => (JSON.parse(l) as { table?: string }).table === '_meta'),
    item,
    vector: { model_id: String(vector.model_id), dims: Number(vector.dims) },
  };
}

const WORDS =
  'orchard survey river ledger harbour signal meadow copper lantern quarry falcon timber'.split(
    ' ',
  );

/** Writes an export of about `bytes` whose rows a fresh Context accepts; returns rows written. */
async function generate(
  t: Template,
  contextId: string,
  bytes: number,
  file: string,
): Promise<number> {
  const out = createWriteStream(file);
  const hash = createHash('sha256');
  const counts: Record<string, number> = {
    _meta: t.meta.length,
    items: 0,
    items_fts: 0,
    item_vectors: 0,
  };
  let written = 0;
  let x = 12345;
  const write = async (line: string) => {
    written += line.length + 1;
    if (!out.write(`${line}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
  };
  const row = async (table: string, r: Record<string, unknown>) => {
    const line = JSON.stringify({ type: 'row', table, row: r });
    hash.update(`${line}\n`);
    counts[table] = (counts[table] ?? 0) + 1;
    await write(line);
  };
  await write(
    JSON.stringify({
      ...t.header,
      context_id: contextId,
      exported_at: new Date().toISOString(),
      counts: undefined,
    }),
  );
  for (const m of t.meta) {
    hash.update(`${m}\n`);
    await write(m);
  }
  const vector = new Float32Array(t.vector.dims);
  for (let seq = 1; written < bytes; seq++) {
    const chunk = seq % 3 !== 0;
    const words: string[] = [];
    for (let i = 0; i < 90; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      words.push(WORDS[x % WORDS.length] ?? 'word');
    }
    const content = `${chunk ? 'Chunk' : 'Fact'} ${seq}: ${words.join(' ')}.`;
    await row('items', {
      ...t.item,
      seq,
      id: `${chunk ? 'chunk' : 'fact'}_bench${seq}`,
      kind: chunk ? 'chunk' : 'fact',
      content,
      source_id: chunk ? `document:doc_bench${Math.floor(seq / 50)}` : null,
    });
    await row('items_fts', { content, __rowid: seq });
    for (let i = 0; i < vector.length; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      vector[i] = x / 2147483648 - 0.5;
    }
    await row('item_vectors', {
      item_seq: seq,
      model_id: t.vector.model_id,
      dims: t.vector.dims,
      vector: { $base64: Buffer.from(vector.buffer).toString('base64') },
    });
  }
  const rows = Object.values(counts).reduce((a, b) => a + b, 0);
  await write(JSON.stringify({ type: 'end', rows, counts, sha256: hash.digest('hex') }));
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
  return rows;
}

// --- the bench ----------------------------------------------------------------------------------

interface SizeResult {
  mb: number;
  rows: number;
  fill: { seconds: number; peakMb: number };
  export: { seconds: number; peakMb: number; bytes: number };
  restore: { seconds: number; peakMb: number };
  identical: boolean;
}

async function runSize(
  server: DevServer,
  t: Template,
  dir: string,
  mb: number,
): Promise<SizeResult> {
  const source = `bench-export-${mb}`;
  const copy = `bench-export-${mb}-copy`;
  const generated = join(dir, `${source}.generated.ndjson`);
  const first = join(dir, `${source}.ndjson`);
  const second = join(dir, `${copy}.ndjson`);
  const rows = await generate(t, source, mb * MB, generated);
  await createContext(server, source);
  const fill = await measured(server, () => importFile(server, source, generated));
  await rm(generated);
  const exported = await measured(server, () => exportFile(server, source, first));
  await createContext(server, copy);
  const restore = await measured(server, () => importFile(server, copy, first));
  await exportFile(server, copy, second);
  const a = trailerOf(first);
  const b = trailerOf(second);
  const identical = a.sha256 === b.sha256 && JSON.stringify(a.counts) === JSON.stringify(b.counts);
  const bytes = statSync(first).size;
  await rm(first);
  await rm(second);
  console.log(`export bench: ${mb} MB done (identical: ${identical})`);
  return {
    mb,
    rows,
    fill: { seconds: fill.seconds, peakMb: fill.peakMb },
    export: { seconds: exported.seconds, peakMb: exported.peakMb, bytes },
    restore: { seconds: restore.seconds, peakMb: restore.peakMb },
    identical,
  };
}

export async function runExportBench(): Promise<string> {
  const sizes = sizesFromArgs();
  const dir = await mkdtemp(join(tmpdir(), 'engram-export-bench-'));
  const server = await startDevServer();
  try {
    const t = await template(server, dir);
    const baseline = server.pid === null ? 0 : workerdRssBytes(server.pid) / MB;
    const results: SizeResult[] = [];
    for (const mb of sizes) results.push(await runSize(server, t, dir, mb));
    const mbps = (bytes: number, s: number) => (bytes / MB / s).toFixed(1);
    return [
      '## Context export and import',
      '',
      `Command: \`npm run bench -- export --sizes=${sizes.join(',')}\`. Generated Contexts (two thirds document chunks, one third facts, each with its FTS row and a ${t.vector.dims}-dim vector) through \`wrangler dev\`. Peak memory: VmRSS of the workerd processes (Worker, Durable Objects and local storage together), idle baseline ${baseline.toFixed(0)} MB.`,
      '',
      '| size | rows | fill (streamed import) | export | restore into a new Context | peak workerd RSS (fill / export / restore) | round trip |',
      '|---|---|---|---|---|---|---|',
      ...results.map(
        (r) =>
          `| ${r.mb} MB (export ${(r.export.bytes / MB).toFixed(0)} MB) | ${r.rows.toLocaleString('en')} | ${r.fill.seconds.toFixed(1)} s (${mbps(r.mb * MB, r.fill.seconds)} MB/s) | ${r.export.seconds.toFixed(1)} s (${mbps(r.export.bytes, r.export.seconds)} MB/s) | ${r.restore.seconds.toFixed(1)} s (${mbps(r.export.bytes, r.restore.seconds)} MB/s) | ${r.fill.peakMb.toFixed(0)} / ${r.export.peakMb.toFixed(0)} / ${r.restore.peakMb.toFixed(0)} MB | ${r.identical ? 'identical (counts and sha256)' : '**differs**'} |`,
      ),
      '',
      'Peer in the same run: the smaller sizes. The RSS figure covers the whole local runtime, whose',
      "SQLite page cache for the Durable Object's growing database sits in the same process, so it",
      'rises with the Context; the Worker itself holds one export page (1 MiB of JSON) or one import',
      'batch (2,000 rows or 4 MiB) at a time. Before this change an export over 32 MiB failed with a',
      '500 (one RPC value) and import held the whole body as one string. `--sizes=1000` runs 1 GB.',
    ].join('\n');
  } catch (err) {
    console.error(`wrangler dev output (end):\n${server.log()}`);
    throw err;
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(await runExportBench());
}
