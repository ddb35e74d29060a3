import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../support/wrangler-dev.ts';

// Issue 16: the runbook's restore, end to end against a real `wrangler dev` (started with
// `--test-scheduled`): a scheduled backup is taken by the cron tick and the local queue's worker
// into local R2, then `npm run backup -- restore-r2 backups/<ctx>/latest --as <new>` (the very
// script, as a child process, reading R2 with wrangler) restores it into a new Context, whose
// export must hold the same rows and whose document file must be the same bytes.

const POLL_LIMIT_MS = 90_000;
const SOURCE = 'e2e-backup-src';
const TARGET = 'e2e-backup-restored';
const FILE_TEXT = 'The runbook restores this file from the scheduled backup.';

/** Runs a command to its end; rejects with its output when it fails. */
function run(cmd: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')}: ${code}\n${out}`)),
    );
  });
}

/** `wrangler r2 object get` from the dev server's local state; null when there is no object. */
async function r2Text(dev: DevServer, key: string): Promise<string | null> {
  const file = join(mkdtempSync(join(tmpdir(), 'engram-r2-')), 'object');
  try {
    await run(
      'wrangler',
      ['r2', 'object', 'get', `memory-blobs/${key}`, '--file', file, '--local'].concat([
        '--persist-to',
        dev.persistTo,
      ]),
      {},
    );
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Row lines of an export, with the document blob keys made Context-neutral, sorted. */
function rows(text: string, ctx: string): string[] {
  return text
    .trim()
    .split('\n')
    .slice(1, -1)
    .map((line) => line.replaceAll(`documents/${ctx}/`, 'documents/<ctx>/'))
    .sort();
}

describe(
  'restore a scheduled backup with npm run backup -- restore-r2',
  { timeout: 600_000 },
  () => {
    let started: DevServer | undefined;
    const server = (): DevServer => {
      if (started === undefined) throw new Error('wrangler dev did not start');
      return started;
    };

    // A second wrangler dev beside the e2e project's own: its start-up can outlast 2 minutes
    // when the 2-core machine is loaded. A limit on waiting, not a measure.
    beforeAll(async () => {
      started = await startDevServer({ testScheduled: true });
    }, 300_000);

    afterAll(async () => {
      await started?.stop();
    });

    async function api(path: string, init: RequestInit = {}): Promise<Response> {
      const headers = new Headers(init.headers);
      headers.set('authorization', `Bearer ${server().bootstrapKey}`);
      return fetch(`${server().url}/api/v1${path}`, { ...init, headers });
    }

    async function ok<T>(res: Response, status: number): Promise<T> {
      const text = await res.text();
      expect(res.status, text).toBe(status);
      return JSON.parse(text) as T;
    }

    const json = (method: string, body: unknown): RequestInit => ({
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

    async function until<T>(what: string, probe: () => Promise<T | null>): Promise<T> {
      const deadline = Date.now() + POLL_LIMIT_MS;
      for (;;) {
        const value = await probe();
        if (value !== null) return value;
        if (Date.now() > deadline)
          throw new Error(`${what} after ${POLL_LIMIT_MS} ms\n${server().log()}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }

    it('restores the newest backup into a new Context with identical rows and files', async () => {
      const dev = server();
      await ok(await api('/contexts', json('POST', { id: SOURCE })), 201);
      await ok(
        await api(
          `/${SOURCE}/facts/batch`,
          json('POST', {
            facts: [
              { content: 'Alice leads Platform in Berlin.', scopes: ['team:platform'] },
              { content: 'Bob moved to Lisbon in March.' },
              { content: 'The quarterly review is on Friday.', metadata: { source: 'calendar' } },
            ],
          }),
        ),
        201,
      );
      const doc = await ok<{ id: string; sha256: string }>(
        await api(`/${SOURCE}/documents?filename=notes.txt`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: FILE_TEXT,
        }),
        202,
      );
      // Processed before the backup, so the live rows no longer change under it.
      await until('document not processed', async () => {
        const got = await ok<{ status: string }>(await api(`/${SOURCE}/documents/${doc.id}`), 200);
        expect(got.status).not.toBe('failed');
        return got.status === 'ready' ? got : null;
      });
      await ok(
        await api(`/contexts/${SOURCE}`, json('PATCH', { backup: { every_hours: 24, keep: 2 } })),
        200,
      );

      const tick = await fetch(`${dev.url}/__scheduled?cron=*+*+*+*+*`);
      expect(tick.status, await tick.text()).toBe(200);
      const latest = await until('no scheduled backup in R2', async () => {
        const text = await r2Text(dev, `backups/${SOURCE}/latest.json`);
        return text === null ? null : (JSON.parse(text) as { key: string });
      });
      expect(latest.key).toMatch(new RegExp(`^backups/${SOURCE}/[\\dTZ-]+\\.ndjson$`));

      const out = await run(
        'node',
        [
          'scripts/backup.ts',
          'restore-r2',
          `backups/${SOURCE}/latest`,
          '--as',
          TARGET,
          '--url',
          dev.url,
          '--persist-to',
          dev.persistTo,
        ],
        { MEMORY_BOOTSTRAP_KEY: dev.bootstrapKey },
      );
      expect(out).toContain(`restoring ${latest.key} into ${TARGET}`);
      expect(out).not.toContain('is not in the backup');

      const source = await (await api(`/contexts/${SOURCE}/export`)).text();
      const restored = await (await api(`/contexts/${TARGET}/export`)).text();
      expect(rows(source, SOURCE).length).toBeGreaterThan(10);
      expect(rows(restored, TARGET)).toEqual(rows(source, SOURCE));
      const file = await api(`/contexts/${TARGET}/export/blobs/${doc.sha256}`);
      expect(file.status).toBe(200);
      expect(await file.text()).toBe(FILE_TEXT);
      // And the restored Context answers like the original.
      const query = await ok<{ results: { content: string }[] }>(
        await api(`/${TARGET}/query`, json('POST', { query: 'Who leads Platform?', mode: 'bm25' })),
        200,
      );
      expect(query.results.map((r) => r.content)).toContain('Alice leads Platform in Berlin.');
    });
  },
);
