import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { CONSOLIDATE_HOOK } from '../../../functions/memory/jobs/consolidate.ts';
import {
  enqueueMaintenance,
  MAINTENANCE_HOOKS,
} from '../../../functions/memory/jobs/maintenance.ts';
import { jobRegistry } from '../../../functions/memory/jobs/registry.ts';
import { call, createContext, json, listFacts, queuedJob } from './model-api.ts';

function run(kind: string, body: Record<string, unknown>): Promise<void> {
  const job = jobRegistry.get(kind);
  if (!job) throw new Error(`no ${kind} job`);
  const prepared = job.prepare({ kind, job_id: `job_test_${kind}`, ...body });
  if (!prepared.ok) throw new Error(prepared.error);
  return prepared.run(env);
}

class Captured {
  readonly sent: { kind: string; context_id: string }[] = [];
  async send(body: { kind: string; context_id: string }): Promise<void> {
    this.sent.push(body);
  }
  async sendBatch(
    messages: Iterable<{ body: { kind: string; context_id: string } }>,
  ): Promise<void> {
    for (const m of messages) this.sent.push(m.body);
  }
}

describe('model-backed jobs', () => {
  it('registers extract_turns, reembed and consolidate, and dead-letters a malformed message', () => {
    for (const kind of ['extract_turns', 'reembed', 'consolidate'])
      expect(jobRegistry.has(kind)).toBe(true);
    const bad = jobRegistry
      .get('extract_turns')
      ?.prepare({ kind: 'extract_turns', job_id: 'j', context_id: 'c' });
    expect(bad).toMatchObject({ ok: false });
  });

  it('the consolidate job merges duplicates of a Context; the hook is cadenced maintenance', async () => {
    const ctx = 'models-job-consolidate';
    await createContext(ctx);
    for (const content of ['Elif likes opera.', 'elif likes opera']) {
      await json(await call(`/api/v1/${ctx}/facts`, { body: { content } }), 201);
    }
    type Plan = { summary: { merge: number; keep: number } };
    const before = await json<Plan>(
      await call(`/api/v1/${ctx}/consolidate`, { body: { dry_run: true } }),
      200,
    );
    expect(before.summary).toMatchObject({ merge: 1, keep: 1 });
    await run('consolidate', { context_id: ctx });
    // The job closed the duplicate (kept, with valid_until): nothing is left to merge.
    const after = await json<Plan>(
      await call(`/api/v1/${ctx}/consolidate`, { body: { dry_run: true } }),
      200,
    );
    expect(after.summary).toMatchObject({ merge: 0, keep: 1 });
    // The merged duplicate is history: listed only when asked for, pointing at the survivor.
    const current = await listFacts(ctx);
    expect(current).toHaveLength(1);
    const history = await listFacts(ctx, 'fact', true);
    expect(history).toHaveLength(2);
    expect(history.find((f) => f.valid_until)?.superseded_by).toBe(current[0]?.id);
    expect(MAINTENANCE_HOOKS).toContainEqual(CONSOLIDATE_HOOK);
    const queue = new Captured();
    const at = CONSOLIDATE_HOOK.everyMinutes * 60_000 * 1000;
    const enqueued = await enqueueMaintenance(
      { DB: env.DB, JOBS: queue as unknown as Queue },
      [CONSOLIDATE_HOOK],
      at,
    );
    expect(enqueued[0]?.kind).toBe('consolidate');
    expect(queue.sent.some((m) => m.kind === 'consolidate' && m.context_id === ctx)).toBe(true);
  });

  it('the extract_turns job is idempotent: running it twice stores the facts once', async () => {
    const ctx = 'models-job-extract';
    await createContext(ctx);
    await json(
      await call(`/api/v1/${ctx}/sessions`, { body: { id: 's', metadata: { speaker: 'Dario' } } }),
      201,
    );
    const turn = await json<{ id: string }>(
      await call(`/api/v1/${ctx}/sessions/s/turns`, {
        body: { role: 'user', content: 'I collect stamps.' },
      }),
      201,
    );
    // The message exactly as the turn append queued it (with the grants it captured).
    const queued = await queuedJob(turn.id);
    await run('extract_turns', queued);
    await run('extract_turns', queued);
    // Without the actor the message is refused, never run with the Context's full rights.
    const { actor: _actor, ...bare } = queued;
    expect(jobRegistry.get('extract_turns')?.prepare({ job_id: 'j', ...bare })).toMatchObject({
      ok: false,
    });
    const matching = (await listFacts(ctx)).filter((f) => f.content === 'Dario collects stamps.');
    expect(matching).toHaveLength(1);
  });
});
