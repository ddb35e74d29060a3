import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../support/wrangler-dev.ts';
import { emptyBackupAt } from '../support/empty-backup.ts';

// The migrations half of the documents issue's "done when", against a real `wrangler dev` of its
// own (started with `--test-scheduled`, so the cron tick can be fired): Contexts restored from a
// backup one schema version old show as behind in /migrations; one scheduler tick and the real
// local queue's worker bring them to the latest version, and /migrations then shows none behind.

const POLL_LIMIT_MS = 60_000;

interface MigrationsReport {
  latest_version: number;
  histogram: Record<string, number>;
  behind: { context_id: string; schema_version: number }[];
}

describe('schema rollout through scheduler and worker (wrangler dev)', { timeout: 150_000 }, () => {
  let dev: DevServer;

  beforeAll(async () => {
    dev = await startDevServer({ testScheduled: true });
  }, 120_000);

  afterAll(async () => {
    await dev.stop();
  });

  async function api(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${dev.bootstrapKey}`);
    return fetch(`${dev.url}/api/v1${path}`, { ...init, headers });
  }

  async function ok<T>(res: Response, status: number): Promise<T> {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return JSON.parse(text) as T;
  }

  const postJson = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

  it('goes from some Contexts behind to none', async () => {
    const latest = (await ok<MigrationsReport>(await api('/migrations'), 200)).latest_version;
    expect(latest).toBeGreaterThanOrEqual(3);
    const from = latest - 1;
    const ids = ['rollout-a', 'rollout-b', 'rollout-c'];
    for (const id of ids) {
      await ok(await api('/contexts', postJson({ id })), 201);
      // A backup taken one version ago: the import leaves the database really at that version.
      const backup = emptyBackupAt(id, from);
      const imported = await api(`/contexts/${id}/import`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson' },
        body: backup,
      });
      expect(imported.status, await imported.text()).toBeLessThan(300);
    }

    const before = await ok<MigrationsReport>(await api('/migrations'), 200);
    expect(before.behind.map((b) => b.context_id).sort()).toEqual(ids);
    expect(before.behind.every((b) => b.schema_version === from)).toBe(true);
    expect(before.histogram[String(from)]).toBe(ids.length);

    const tick = await fetch(`${dev.url}/__scheduled?cron=*+*+*+*+*`);
    expect(tick.status, await tick.text()).toBe(200);

    const deadline = Date.now() + POLL_LIMIT_MS;
    let last = before;
    while (last.behind.length > 0) {
      if (Date.now() > deadline) {
        throw new Error(
          `still behind after ${POLL_LIMIT_MS} ms; last /migrations: ${JSON.stringify(last)}\n${dev.log()}`,
        );
      }
      await new Promise((r) => setTimeout(r, 250));
      last = await ok<MigrationsReport>(await api('/migrations'), 200);
    }
    expect(last.histogram[String(from)] ?? 0).toBe(0);
    expect(last.histogram[String(latest)]).toBe(ids.length);
    for (const id of ids) {
      const context = await ok<{ schema_version: number }>(await api(`/contexts/${id}`), 200);
      expect(context.schema_version).toBe(latest);
    }

    // The migrated database works: a fact written after the rollout is read back.
    const written = await ok<{ facts: { id: string }[] }>(
      await api('/rollout-a/facts', postJson({ content: 'The rollout finished.', scopes: ['*'] })),
      201,
    );
    const factId = written.facts[0]?.id ?? '(none returned)';
    const read = await ok<{ content: string }>(await api(`/rollout-a/facts/${factId}`), 200);
    expect(read.content).toBe('The rollout finished.');
  });
});
