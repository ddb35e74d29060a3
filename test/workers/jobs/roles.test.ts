import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
} from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { handleQueue } from '../../../functions/memory/jobs/queue.ts';
import { parseRoles } from '../../../functions/memory/jobs/roles.ts';
import { handleScheduled } from '../../../functions/memory/jobs/scheduled.ts';
import { dueHooks } from '../../../functions/memory/jobs/maintenance.ts';
import { CapturingQueue, createContextAtV1 } from './helpers.ts';

describe('roles', () => {
  it('parses ROLES, defaulting to all three', () => {
    expect([...parseRoles('api,worker,scheduler')]).toEqual(['api', 'worker', 'scheduler']);
    expect([...parseRoles('')]).toEqual(['api', 'worker', 'scheduler']);
    expect([...parseRoles(undefined)]).toEqual(['api', 'worker', 'scheduler']);
    expect([...parseRoles(' Worker , nonsense')]).toEqual(['worker']);
  });

  it('runs the cron tick only in the scheduler role', async () => {
    await createContextAtV1('roles-behind');
    // Minute 1 of an hour: the hourly maintenance hooks are not due, only migrations.
    const controller = createScheduledController({
      scheduledTime: new Date(Date.UTC(2026, 0, 1, 0, 1)),
      cron: '* * * * *',
    });

    const apiOnly = new CapturingQueue();
    await handleScheduled(controller, { ...env, ROLES: 'api', JOBS: apiOnly as unknown as Queue });
    expect(apiOnly.sent).toEqual([]);

    const scheduler = new CapturingQueue();
    await handleScheduled(controller, {
      ...env,
      ROLES: 'scheduler',
      JOBS: scheduler as unknown as Queue,
    });
    expect(scheduler.sent).toEqual([
      expect.objectContaining({ kind: 'context_migrate', context_id: 'roles-behind' }),
    ]);
  });

  it('hands queue messages back when the worker role is absent', async () => {
    const batch = createMessageBatch('memory-jobs', [
      { id: 'roles-msg', timestamp: new Date(), attempts: 1, body: { kind: 'context_migrate' } },
    ]);
    const ctx = createExecutionContext();
    await handleQueue(batch, { ...env, ROLES: 'api,scheduler' });
    const result = await getQueueResult(batch, ctx);
    expect(result.retryBatch.retry).toBe(true);
    expect(result.explicitAcks).toEqual([]);
  });

  it('records an invalid job message as a dead letter instead of retrying it', async () => {
    const batch = createMessageBatch('memory-jobs', [
      {
        id: 'roles-invalid',
        timestamp: new Date(),
        attempts: 1,
        body: {
          kind: 'context_migrate',
          job_id: 'job_invalid',
          context_id: 'roles-behind',
          target_version: 'x',
        },
      },
    ]);
    const ctx = createExecutionContext();
    await handleQueue(batch, env);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(['roles-invalid']);
    const row = await env.DB.prepare('SELECT kind, error FROM dlq_records WHERE job_id = ?')
      .bind('job_invalid')
      .first<{ kind: string; error: string }>();
    expect(row?.kind).toBe('context_migrate');
    expect(row?.error).toMatch(/^invalid context_migrate message: target_version/);
  });
});

describe('maintenance cadence', () => {
  it('runs a hook on minutes divisible by its cadence', () => {
    const hooks = [
      { kind: 'every-minute', everyMinutes: 1 },
      { kind: 'hourly', everyMinutes: 60 },
    ];
    expect(dueHooks(hooks, 60 * 60_000).map((h) => h.kind)).toEqual(['every-minute', 'hourly']);
    expect(dueHooks(hooks, 61 * 60_000 + 5_000).map((h) => h.kind)).toEqual(['every-minute']);
  });
});
