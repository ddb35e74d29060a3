import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import type { DeadLetter } from '../../../functions/memory/jobs/dead-letters.ts';
import { runSchedulerTick } from '../../../functions/memory/jobs/scheduled.ts';
import { LATEST_SCHEMA_VERSION } from '../../../functions/memory/store/schema/index.ts';
import {
  agentKey,
  api,
  CapturingQueue,
  createContext,
  createContextAtV1,
  deliver,
  fakeEnv,
} from './helpers.ts';

interface MigrationsBody {
  latest_version: number;
  histogram: Record<string, number>;
  behind: { context_id: string; schema_version: number; migration_ready: boolean }[];
  dlq: DeadLetter[];
}

async function migrations(): Promise<MigrationsBody> {
  const res = await api('/api/v1/migrations');
  expect(res.status).toBe(200);
  return (await res.json()) as MigrationsBody;
}

async function tables(contextId: string): Promise<string[]> {
  return runInDurableObject(env.CONTEXT_STORE.getByName(contextId), (_obj, state) =>
    state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .toArray()
      .map((r) => r.name),
  );
}

async function itemColumns(contextId: string): Promise<string[]> {
  return runInDurableObject(env.CONTEXT_STORE.getByName(contextId), (_obj, state) =>
    state.storage.sql
      .exec<{ name: string }>("SELECT name FROM pragma_table_info('items')")
      .toArray()
      .map((r) => r.name),
  );
}

// The tests share one D1 database (per file) and build on each other's Contexts, in order.
describe('per-Context schema migrations', () => {
  it('ships V1 base, V2 additive and V3 destructive', () => {
    expect(LATEST_SCHEMA_VERSION).toBeGreaterThanOrEqual(3);
  });

  it('scheduler and worker bring V1 Contexts to the latest version, one job per Context', async () => {
    await createContextAtV1('mig-a');
    await createContextAtV1('mig-b');
    await createContext('mig-c');
    expect(await tables('mig-a')).not.toContain('documents');

    const before = await migrations();
    expect(before.latest_version).toBe(LATEST_SCHEMA_VERSION);
    expect(before.histogram).toEqual({ '1': 2, [String(LATEST_SCHEMA_VERSION)]: 1 });
    expect(before.behind.map((b) => b.context_id)).toEqual(['mig-a', 'mig-b']);

    const queue = new CapturingQueue();
    const tick = await runSchedulerTick(fakeEnv(queue), Date.now(), []);
    expect(tick.migrations).toHaveLength(2);
    // A second tick while those jobs are pending enqueues nothing.
    expect((await runSchedulerTick(fakeEnv(queue), Date.now(), [])).migrations).toHaveLength(0);
    expect(queue.sent).toHaveLength(2);

    const result = await deliver('memory-jobs', queue.sent);
    expect(result.explicitAcks).toHaveLength(2);
    expect(result.retryMessages).toHaveLength(0);

    for (const id of ['mig-a', 'mig-b']) {
      expect(await env.CONTEXT_STORE.getByName(id).schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
      const names = await tables(id);
      expect(names).toContain('documents');
      // V2 created the legacy table and V3 dropped it.
      expect(names).not.toContain('legacy_document_text');
      expect(await itemColumns(id)).toEqual(expect.arrayContaining(['valid_from', 'valid_until']));
    }
    const after = await migrations();
    expect(after.behind).toEqual([]);
    expect(after.histogram).toEqual({ [String(LATEST_SCHEMA_VERSION)]: 3 });
    expect((await runSchedulerTick(fakeEnv(queue), Date.now(), [])).migrations).toHaveLength(0);

    // A re-delivered job finishes once: acked, nothing re-applied.
    const again = await deliver('memory-jobs', queue.sent, 2);
    expect(again.explicitAcks).toHaveLength(2);
    expect(await env.CONTEXT_STORE.getByName('mig-a').schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
  });

  it('answers 403 to an agent key', async () => {
    await createContext('mig-agent-ctx');
    const key = await agentKey('mig-agent-ctx', 'mig-agent');
    const res = await api('/api/v1/migrations', { key });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });

  it('dead-letters a failing migration, blocks maintenance, and succeeds once fixed and retried', async () => {
    await createContextAtV1('mig-broken');
    await createContext('mig-ready');
    // Make V2 fail: a stray table where V2 creates `documents`.
    await runInDurableObject(env.CONTEXT_STORE.getByName('mig-broken'), (_obj, state) => {
      state.storage.sql.exec('CREATE TABLE documents (stray TEXT)');
    });
    const queue = new CapturingQueue();
    const tick = await runSchedulerTick(fakeEnv(queue), Date.now(), []);
    expect(tick.migrations).toHaveLength(1);

    // memory-jobs: max_retries = 3, so four deliveries, each retried.
    for (let attempt = 1; attempt <= 4; attempt++) {
      const result = await deliver('memory-jobs', queue.sent, attempt);
      expect(result.retryMessages).toHaveLength(1);
    }
    // The failed V2 step rolled back as a whole; the Context stays at V1.
    expect(await env.CONTEXT_STORE.getByName('mig-broken').schemaVersion()).toBe(1);
    expect(await itemColumns('mig-broken')).not.toContain('valid_until');

    const dead = await deliver('memory-jobs-dlq', queue.sent, 4);
    expect(dead.explicitAcks).toHaveLength(1);

    const report = await migrations();
    expect(report.dlq).toHaveLength(1);
    const entry = report.dlq[0];
    if (!entry) throw new Error('expected a DLQ entry');
    expect(entry).toMatchObject({
      context_id: 'mig-broken',
      kind: 'context_migrate',
      attempts: 4,
      retried_at: null,
    });
    expect(entry.error).toMatch(/schema migration V2 failed: .*documents/);
    expect(report.behind).toEqual([
      { context_id: 'mig-broken', schema_version: 1, migration_ready: false },
    ]);

    // Not migration-ready: cadenced maintenance skips it, and the scheduler does not loop on it.
    const hooks = [{ kind: 'test_maintenance', everyMinutes: 1 }];
    const blocked = await runSchedulerTick(fakeEnv(queue), Date.now(), hooks);
    expect(blocked.migrations).toHaveLength(0);
    const maintained = queue.sent
      .slice(-(blocked.maintenance[0]?.job_ids.length ?? 0))
      .map((m) => (m as { context_id: string }).context_id);
    expect(maintained).toContain('mig-ready');
    expect(maintained).not.toContain('mig-broken');

    // Fix the schema, then a management call re-enqueues the entry.
    await runInDurableObject(env.CONTEXT_STORE.getByName('mig-broken'), (_obj, state) => {
      state.storage.sql.exec('DROP TABLE documents');
    });
    const agent = await agentKey('mig-ready', 'mig-agent-2');
    expect(
      (await api(`/api/v1/migrations/dlq/${entry.id}/retry`, { method: 'POST', key: agent }))
        .status,
    ).toBe(403);
    const retry = await api(`/api/v1/migrations/dlq/${entry.id}/retry`, { method: 'POST' });
    expect(retry.status).toBe(202);
    const { job_id } = (await retry.json()) as { job_id: string };

    // The retried job goes through the real memory-jobs queue and its consumer.
    await vi.waitFor(
      async () => {
        const row = await env.DB.prepare('SELECT status FROM jobs WHERE id = ?')
          .bind(job_id)
          .first<{ status: string }>();
        expect(row?.status).toBe('succeeded');
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(await env.CONTEXT_STORE.getByName('mig-broken').schemaVersion()).toBe(
      LATEST_SCHEMA_VERSION,
    );
    const healed = await migrations();
    expect(healed.behind).toEqual([]);
    expect(healed.dlq[0]?.retried_at).not.toBeNull();
    expect((await api(`/api/v1/migrations/dlq/${entry.id}/retry`, { method: 'POST' })).status).toBe(
      409,
    );

    const laterQueue = new CapturingQueue();
    await runSchedulerTick(fakeEnv(laterQueue), Date.now(), [
      { kind: 'test_maintenance_2', everyMinutes: 1 },
    ]);
    const maintainedLater = laterQueue.sent.map((m) => (m as { context_id: string }).context_id);
    expect(maintainedLater).toEqual(expect.arrayContaining(['mig-broken', 'mig-ready']));
  });
});

describe('fencing on the migration path', () => {
  it('refuses a stale lease holder and retries a job whose lease is busy', async () => {
    await createContextAtV1('mig-fence');
    const lease = env.CONTEXT_LEASE.getByName('mig-fence');
    const store = env.CONTEXT_STORE.getByName('mig-fence');
    const old = await lease.acquire('old-holder', 60_000);
    if (!old.ok) throw new Error('expected a grant');
    await runInDurableObject(lease, (_obj, state) => {
      state.storage.sql.exec('UPDATE lease SET expires_at = 0 WHERE id = 1');
    });
    const fresh = await lease.acquire('new-holder', 60_000);
    if (!fresh.ok) throw new Error('expected a grant');
    expect(await store.migrateSchema(fresh.token, 2)).toMatchObject({ ok: true, version: 2 });
    const stale = await store.migrateSchema(old.token, LATEST_SCHEMA_VERSION);
    expect(stale).toMatchObject({ ok: false, version: 2 });
    if (!stale.ok) expect(stale.error).toMatch(/stale fencing token/);

    // The new holder still holds the lease: a migration job cannot take it and is retried.
    const queue = new CapturingQueue();
    await runSchedulerTick(fakeEnv(queue), Date.now(), []);
    const mine = queue.sent.filter((m) => (m as { context_id: string }).context_id === 'mig-fence');
    expect(mine).toHaveLength(1);
    const busy = await deliver('memory-jobs', mine);
    expect(busy.retryMessages).toHaveLength(1);
    expect(await store.schemaVersion()).toBe(2);

    await lease.release(fresh.token);
    const done = await deliver('memory-jobs', mine, 2);
    expect(done.explicitAcks).toHaveLength(1);
    expect(await store.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
  });
});
