// `npm run backup`: exports every Context's whole database as NDJSON through the running API,
// streamed to disk, with the documents' files it references (blobs/<sha256>).
//   npm run backup                         # local `npm start` at http://127.0.0.1:8787
//   npm run backup -- --remote --url https://memory.example.com
//   npm run backup -- restore backups/2026-11-21T06-00-00Z [--suffix -restored]
//   npm run backup -- restore-r2 backups/acme/2026-11-21T06-00-00-000Z.ndjson --as acme-restored
//   npm run backup -- restore-r2 backups/acme/latest --as acme-restored   # the newest backup
//   (--persist-to <dir> reads the registry and R2 of a `wrangler dev --persist-to <dir>`; --out <dir>)
// The Context list comes from the D1 registry (`wrangler d1 execute memory-control`, --local by
// default); each export is `GET /api/v1/contexts/{id}/export`, each restore creates the Context
// (`POST /api/v1/contexts`), streams the file into it (`POST /api/v1/contexts/{id}/import`) and
// puts each file back (`PUT /api/v1/contexts/{id}/import/blobs/{sha256}`). `restore-r2` does the
// same from a scheduled backup in R2 (its files under backups/<context>/blobs/), read with
// `wrangler r2 object get`.
// The management key is MEMORY_BOOTSTRAP_KEY from the environment, else from .dev.vars.
import { spawnSync } from 'node:child_process';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openAsBlob,
  readdirSync,
  readFileSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

interface Options {
  command: 'backup' | 'restore' | 'restore-r2';
  /** restore-r2: the Context to create and restore into. */
  as: string | null;
  dir: string | null;
  url: string;
  remote: boolean;
  /** Local D1 state directory of a `wrangler dev --persist-to <dir>`. */
  persistTo: string | null;
  suffix: string;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = {
    command: 'backup',
    dir: null,
    url: `http://127.0.0.1:${process.env.PORT ?? '8787'}`,
    remote: false,
    persistTo: null,
    suffix: '',
    as: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === 'restore') opts.command = 'restore';
    else if (arg === 'restore-r2') opts.command = 'restore-r2';
    else if (arg === '--as') opts.as = argv[++i] ?? null;
    else if (arg === '--remote') opts.remote = true;
    else if (arg === '--url') opts.url = argv[++i] ?? opts.url;
    else if (arg === '--suffix') opts.suffix = argv[++i] ?? '';
    else if (arg === '--persist-to') opts.persistTo = argv[++i] ?? null;
    else if (arg === '--out' || (opts.command !== 'backup' && arg && !arg.startsWith('--'))) {
      opts.dir = arg === '--out' ? (argv[++i] ?? null) : arg;
    }
  }
  return opts;
}

function managementKey(): string {
  if (process.env.MEMORY_BOOTSTRAP_KEY) return process.env.MEMORY_BOOTSTRAP_KEY;
  const text = existsSync('.dev.vars') ? readFileSync('.dev.vars', 'utf8') : '';
  const found = /^MEMORY_BOOTSTRAP_KEY\s*=\s*"?([^"\n]+)"?/m.exec(text);
  if (!found?.[1])
    throw new Error('set MEMORY_BOOTSTRAP_KEY or run `npm start` once to create .dev.vars');
  return found[1];
}

/** Every Context id in the registry, read with wrangler's D1 client. */
function contextIds(remote: boolean, persistTo: string | null): string[] {
  const result = spawnSync(
    'wrangler',
    [
      'd1',
      'execute',
      'memory-control',
      remote ? '--remote' : '--local',
      ...(persistTo ? ['--persist-to', persistTo] : []),
      '--json',
      '--command',
      'SELECT id FROM contexts ORDER BY id',
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`wrangler d1 execute failed: ${result.stderr}`);
  const parsed = JSON.parse(result.stdout) as { results: { id: string }[] }[];
  return parsed.flatMap((r) => r.results.map((row) => row.id));
}

async function call(opts: Options, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${managementKey()}`);
  const url = `${opts.url}${path}`;
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers });
  } catch (err) {
    // A kept-alive connection the server closed while idle fails the next request on it; GET and
    // PUT (a file put back is kept if already there) are safe to send once more, POST is not.
    const method = init.method ?? 'GET';
    if (method !== 'GET' && method !== 'PUT') throw err;
    res = await fetch(url, { ...init, headers });
  }
  if (!res.ok)
    throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
  return res;
}

/** The sha256 of every document row in an export file, read line by line. */
async function documentShas(file: string): Promise<string[]> {
  const shas: string[] = [];
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.includes('"table":"documents"')) continue;
    const parsed = JSON.parse(line) as { table?: string; row?: { sha256?: unknown } };
    if (parsed.table === 'documents' && typeof parsed.row?.sha256 === 'string') {
      shas.push(parsed.row.sha256);
    }
  }
  return shas;
}

async function download(res: Response, file: string): Promise<void> {
  if (!res.body) throw new Error(`empty body for ${file}`);
  await pipeline(Readable.fromWeb(res.body as never), createWriteStream(file));
}

async function backup(opts: Options): Promise<void> {
  const dir = opts.dir ?? join('backups', new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(join(dir, 'blobs'), { recursive: true });
  const ids = contextIds(opts.remote, opts.persistTo);
  for (const id of ids) {
    const file = join(dir, `${id}.ndjson`);
    const ctx = encodeURIComponent(id);
    await download(await call(opts, `/api/v1/contexts/${ctx}/export`), file);
    const shas = await documentShas(file);
    for (const sha of shas) {
      const blob = join(dir, 'blobs', sha);
      if (!existsSync(blob)) {
        await download(await call(opts, `/api/v1/contexts/${ctx}/export/blobs/${sha}`), blob);
      }
    }
    console.log(`backed up ${id} (${statSync(file).size} bytes, ${shas.length} file(s))`);
  }
  console.log(`${ids.length} Context(s) backed up to ${dir}`);
}

/** Creates `id`, streams `file` into it, then puts back every file `blobOf` finds. */
async function restoreOne(
  opts: Options,
  id: string,
  file: string,
  blobOf: (sha: string) => string | null,
): Promise<void> {
  const ctx = encodeURIComponent(id);
  await call(opts, '/api/v1/contexts', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id }),
  });
  // A file-backed Blob: read from disk as it is sent, with its length declared up front rather
  // than a chunked stream (one e2e run saw a chunked import's socket closed mid-body locally).
  const res = await call(opts, `/api/v1/contexts/${ctx}/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body: await openAsBlob(file),
  });
  console.log(`restored ${id}:`, await res.text());
  for (const sha of await documentShas(file)) {
    const blob = blobOf(sha);
    if (blob === null) {
      console.warn(`  file ${sha} is not in the backup: its document stays without a file`);
      continue;
    }
    await call(opts, `/api/v1/contexts/${ctx}/import/blobs/${sha}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: readFileSync(blob),
    });
  }
}

async function restore(opts: Options): Promise<void> {
  const dir = opts.dir;
  if (!dir) throw new Error('usage: npm run backup -- restore <backup dir> [--suffix -restored]');
  const files = readdirSync(dir).filter((f) => f.endsWith('.ndjson'));
  for (const file of files) {
    const id = `${file.slice(0, -'.ndjson'.length)}${opts.suffix}`;
    await restoreOne(opts, id, join(dir, file), (sha) => {
      const blob = join(dir, 'blobs', sha);
      return existsSync(blob) ? blob : null;
    });
  }
}

/** `wrangler r2 object get memory-blobs/<key>` into `file`; false when there is no such object. */
function r2Get(opts: Options, key: string, file: string): boolean {
  const result = spawnSync(
    'wrangler',
    [
      'r2',
      'object',
      'get',
      `memory-blobs/${key}`,
      '--file',
      file,
      opts.remote ? '--remote' : '--local',
      ...(opts.persistTo ? ['--persist-to', opts.persistTo] : []),
    ],
    { encoding: 'utf8' },
  );
  return result.status === 0 && existsSync(file);
}

/** `backups/<ctx>/latest` names the newest backup: its key is in `latest.json`, which R2 holds. */
function resolveLatest(opts: Options, key: string, tmp: string): string {
  const match = /^backups\/([^/]+)\/latest(?:\.json)?$/.exec(key);
  if (!match) return key;
  const pointer = join(tmp, 'latest.json');
  if (!r2Get(opts, `backups/${match[1]}/latest.json`, pointer)) {
    throw new Error(
      `no scheduled backup of ${match[1]} in R2 (no backups/${match[1]}/latest.json)`,
    );
  }
  const parsed = JSON.parse(readFileSync(pointer, 'utf8')) as { key?: unknown };
  if (typeof parsed.key !== 'string') throw new Error(`${key}: latest.json names no export`);
  return parsed.key;
}

async function restoreFromR2(opts: Options): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'engram-restore-'));
  const key = opts.dir === null ? null : resolveLatest(opts, opts.dir, tmp);
  const match = key ? /^backups\/([^/]+)\/[^/]+\.ndjson$/.exec(key) : null;
  if (!key || !match?.[1] || !opts.as) {
    throw new Error(
      'usage: npm run backup -- restore-r2 backups/<context>/<timestamp>.ndjson|latest --as <new id>',
    );
  }
  const source = match[1];
  console.log(`restoring ${key} into ${opts.as}`);
  const file = join(tmp, 'export.ndjson');
  if (!r2Get(opts, key, file)) throw new Error(`no R2 object ${key}`);
  // Every file is fetched before the first API call: wrangler runs synchronously, and a long
  // pause between two calls lets the server close the idle connection under the next one.
  const blobs = new Map<string, string>();
  for (const sha of await documentShas(file)) {
    const blob = join(tmp, sha);
    if (r2Get(opts, `backups/${source}/blobs/${sha}`, blob)) blobs.set(sha, blob);
  }
  await restoreOne(opts, opts.as, file, (sha) => blobs.get(sha) ?? null);
}

const opts = parseArgs(process.argv.slice(2));
await (opts.command === 'restore'
  ? restore(opts)
  : opts.command === 'restore-r2'
    ? restoreFromR2(opts)
    : backup(opts));
