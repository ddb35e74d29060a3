// The scale bench's `wrangler dev`: one per vector width, on a persist directory of its own under
// the temp folder, so that it can be stopped and started again on the same data (the cold
// queries). It is stopped and its state removed on the way out, also on a sudden exit.
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevServer, type DevServer } from '../../test/support/wrangler-dev.ts';

/** wrangler output that says an object was reset (e.g. over its memory limit). */
const RESET_LINE = /reset because|exceeded (its )?memory|memory limit/i;

export class ScaleServer {
  server: DevServer | null = null;
  /** Lines saying an object was reset, in the tail of each run's output (the harness keeps 4 KB). */
  resetLines = 0;
  /** On a sudden exit (Ctrl-C, an uncaught error): only synchronous work runs there. */
  private readonly kill = () => {
    if (this.server?.pid) process.kill(-this.server.pid, 'SIGTERM');
    rmSync(this.state, { recursive: true, force: true });
  };
  readonly state: string;
  readonly vars: Record<string, string>;
  /** A new, empty state directory; `vars` as the harness takes them. */
  static async create(vars: Record<string, string>): Promise<ScaleServer> {
    return new ScaleServer(await mkdtemp(join(tmpdir(), 'engram-scale-')), vars);
  }

  private constructor(state: string, vars: Record<string, string>) {
    this.state = state;
    this.vars = { ...vars };
    process.once('exit', this.kill);
  }

  async start(): Promise<DevServer> {
    this.server = await startDevServer({ vars: this.vars, persistTo: this.state });
    return this.server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server === null) return;
    this.resetLines += server
      .log()
      .split('\n')
      .filter((l) => RESET_LINE.test(l)).length;
    await server.stop();
  }

  async close(): Promise<void> {
    await this.stop();
    process.off('exit', this.kill);
    await rm(this.state, { recursive: true, force: true });
  }
}
