import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running `wrangler dev` on loopback with its own, throw-away local state. */
export interface DevServer {
  url: string;
  bootstrapKey: string;
  /** Process id of `wrangler dev` (its workerd runs below it), for memory measurements. */
  pid: number | null;
  /** Its local state (`--persist-to`): wrangler's D1 and R2 commands read it with the same flag. */
  persistTo: string;
  /** The V8 inspector port (`--inspector-port`): `/json` lists the Worker's isolate. */
  inspectorPort: number;
  /** The end of wrangler's output, for a failure report. */
  log(): string;
  stop(): Promise<void>;
}

export interface DevServerOptions {
  /** Extra variables, e.g. `{ MAX_IN_FLIGHT: '1' }`. */
  vars?: Record<string, string>;
  /** Pass `--test-scheduled`, so the cron tick can be fired with `GET /__scheduled`. */
  testScheduled?: boolean;
  /** Another Worker's wrangler config (a bench's peer): no D1 migrations are applied for it. */
  config?: string;
  /**
   * A state directory the caller owns (the scale bench restarts on the same data): migrations
   * are applied to it (a no-op when already applied) and `stop()` leaves it in place.
   */
  persistTo?: string;
}

/** Asks the kernel for a free loopback port. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} failed: ${stderr}`)),
    );
  });
}

async function waitForHealth(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited early:\n${log()}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`wrangler dev did not become healthy:\n${log()}`);
}

/** The control plane's D1 schema, in a fresh persistence directory. */
function applyControlMigrations(state: string): Promise<void> {
  return run('wrangler', [
    'd1',
    'migrations',
    'apply',
    'memory-control',
    '--local',
    '--persist-to',
    state,
  ]);
}

/**
 * Starts `wrangler dev` against the already built dist/, with D1 migrations applied to a fresh
 * persistence directory, so each run starts from an empty control plane.
 */
export async function startDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const state = options.persistTo ?? (await mkdtemp(join(tmpdir(), 'engram-dev-')));
  const bootstrapKey = `mem_management_${crypto.randomUUID().replaceAll('-', '')}`;
  if (options.config === undefined) await applyControlMigrations(state);
  const port = await freePort();
  const inspector = await freePort();
  const vars = { MEMORY_BOOTSTRAP_KEY: bootstrapKey, ...options.vars };
  const args = [
    'dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(inspector),
    '--persist-to',
    state,
    ...(options.testScheduled === true ? ['--test-scheduled'] : []),
    ...(options.config === undefined ? [] : ['--config', options.config]),
    '--show-interactive-dev-session=false',
    '--log-level',
    'warn',
    ...Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`]),
  ];
  const child = spawn('wrangler', args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, child, () => output);
  return {
    url,
    bootstrapKey,
    pid: child.pid ?? null,
    persistTo: state,
    inspectorPort: inspector,
    log: () => output.slice(-4000),
    async stop() {
      if (child.pid !== undefined && child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        process.kill(-child.pid, 'SIGTERM');
        await exited;
      }
      if (options.persistTo === undefined) await rm(state, { recursive: true, force: true });
    },
  };
}
