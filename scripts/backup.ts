// `npm run backup`: exports every Context's whole database as NDJSON through the running API.
//   npm run backup                         # local `npm start` at http://127.0.0.1:8787
//   npm run backup -- --remote --url https://memory.example.com
//   npm run backup -- restore backups/2026-11-21T06-00-00Z [--suffix -restored]
//   (--persist-to <dir> reads the registry of a `wrangler dev --persist-to <dir>`; --out <dir>)
// The Context list comes from the D1 registry (`wrangler d1 execute memory-control`, --local by
// default); each export is `GET /api/v1/contexts/{id}/export`, each restore creates the Context
// (`POST /api/v1/contexts`) and replays the file into it (`POST /api/v1/contexts/{id}/import`).
// The management key is MEMORY_BOOTSTRAP_KEY from the environment, else from .dev.vars.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Options {
  command: 'backup' | 'restore';
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
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === 'restore') opts.command = 'restore';
    else if (arg === '--remote') opts.remote = true;
    else if (arg === '--url') opts.url = argv[++i] ?? opts.url;
    else if (arg === '--suffix') opts.suffix = argv[++i] ?? '';
    else if (arg === '--persist-to') opts.persistTo = argv[++i] ?? null;
    else if (arg === '--out' || (opts.command === 'restore' && arg && !arg.startsWith('--'))) {
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
  const res = await fetch(`${opts.url}${path}`, { ...init, headers });
  if (!res.ok)
    throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
  return res;
}

async function backup(opts: Options): Promise<void> {
  const dir = opts.dir ?? join('backups', new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(dir, { recursive: true });
  const ids = contextIds(opts.remote, opts.persistTo);
  for (const id of ids) {
    const ndjson = await (
      await call(opts, `/api/v1/contexts/${encodeURIComponent(id)}/export`)
    ).text();
    writeFileSync(join(dir, `${id}.ndjson`), ndjson);
    console.log(`backed up ${id} (${ndjson.length} bytes)`);
  }
  console.log(`${ids.length} Context(s) backed up to ${dir}`);
}

async function restore(opts: Options): Promise<void> {
  if (!opts.dir)
    throw new Error('usage: npm run backup -- restore <backup dir> [--suffix -restored]');
  const files = readdirSync(opts.dir).filter((f) => f.endsWith('.ndjson'));
  for (const file of files) {
    const id = `${file.slice(0, -'.ndjson'.length)}${opts.suffix}`;
    await call(opts, '/api/v1/contexts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id }),
    });
    const res = await call(opts, `/api/v1/contexts/${encodeURIComponent(id)}/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: readFileSync(join(opts.dir, file), 'utf8'),
    });
    console.log(`restored ${id}:`, await res.text());
  }
}

const opts = parseArgs(process.argv.slice(2));
await (opts.command === 'restore' ? restore(opts) : backup(opts));
