import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { behindContexts } from '../../../functions/memory/jobs/context-versions.ts';
import { enqueueForContexts, resendStaleJobs } from '../../../functions/memory/jobs/enqueue.ts';
import { CapturingQueue, fakeEnv } from './helpers.ts';

async function registryContexts(prefix: string, count: number, version: number): Promise<void> {
  const now = new Date().toISOString();
  const ids = Array.from({ length: count }, (_, i) => `${prefix}-${String(i).padStart(4, '0')}`);
  await env.DB.batch(
    ids.map((id) =>
      env.DB.prepare(
        'INSERT INTO contexts (id, schema_version, created_at, updated_at) VALUES (?, ?, ?, ?)',
      ).bind(id, version, now, now),
    ),
  );
}

describe('bulk enqueue for the scheduler', () => {
  it('records and sends one job per selected Context, in set-based queries, never twice while pending', async () => {
    await registryContexts('enq', 250, 1);
    const queue = new CapturingQueue();
    const ids = await enqueueForContexts(
      fakeEnv(queue),
      'context_migrate',
      { target_version: 9 },
      behindContexts(9),
    );
    expect(ids).toHaveLength(250);
    expect(queue.sent).toHaveLength(250);
    const first = queue.sent[0] as Record<string, unknown>;
    expect(first).toEqual({
      kind: 'context_migrate',
      job_id: ids[0],
      context_id: 'enq-0000',
      target_version: 9,
    });
    const row = await env.DB.prepare('SELECT status, body FROM jobs WHERE id = ?')
      .bind(ids[0])
      .first<{ status: string; body: string }>();
    expect(row?.status).toBe('queued');
    expect(JSON.parse(row?.body ?? '{}')).toEqual(first);

    expect(
      await enqueueForContexts(
        fakeEnv(queue),
        'context_migrate',
        { target_version: 9 },
        behindContexts(9),
      ),
    ).toEqual([]);
    expect(queue.sent).toHaveLength(250);
  });

  it('caps a tick and lets the next one continue', async () => {
    await registryContexts('cap', 30, 1);
    const queue = new CapturingQueue();
    const selection = {
      sql: "SELECT id FROM contexts WHERE id LIKE 'cap-%' ORDER BY id",
      binds: [],
    };
    expect(await enqueueForContexts(fakeEnv(queue), 'test_cap', {}, selection, 20)).toHaveLength(
      20,
    );
    expect(await enqueueForContexts(fakeEnv(queue), 'test_cap', {}, selection, 20)).toHaveLength(
      10,
    );
    expect(new Set(queue.sent.map((m) => (m as { context_id: string }).context_id)).size).toBe(30);
  });

  it('re-sends a job whose message was lost, under the same job id, once per staleness window', async () => {
    const queue = new CapturingQueue();
    const selection = { sql: "SELECT id FROM contexts WHERE id = 'cap-0000'", binds: [] };
    const [id] = await enqueueForContexts(fakeEnv(queue), 'test_lost', {}, selection);
    expect(await resendStaleJobs(fakeEnv(queue), 60_000)).toEqual([]);
    await env.DB.prepare('UPDATE jobs SET updated_at = ? WHERE id = ?')
      .bind(new Date(Date.now() - 120_000).toISOString(), id)
      .run();
    const resendQueue = new CapturingQueue();
    expect(await resendStaleJobs(fakeEnv(resendQueue), 60_000)).toEqual([id]);
    expect(resendQueue.sent).toEqual([expect.objectContaining({ job_id: id, kind: 'test_lost' })]);
    expect(await resendStaleJobs(fakeEnv(resendQueue), 60_000)).toEqual([]);
  });
});
