import { z } from 'zod';
import { consolidateLens } from '../operations/consolidate.ts';
import type { ContextRow } from '../operations/contexts.ts';
import { createDeps } from '../operations/create-deps.ts';
import { providerOf } from '../operations/model-provider.ts';
import { defineJob } from './define-job.ts';
import { enqueueSuccessor } from './enqueue.ts';
import type { MaintenanceHook } from './maintenance-hook.ts';
import { jobBaseSchema } from './messages.ts';

export const CONSOLIDATE_KIND = 'consolidate';

/** Cadenced consolidation: the scheduler enqueues it for migration-ready Contexts only. */
export const CONSOLIDATE_HOOK: MaintenanceHook = { kind: CONSOLIDATE_KIND, everyMinutes: 60 };

export const consolidateSchema = jobBaseSchema.extend({ kind: z.literal(CONSOLIDATE_KIND) });

export const consolidateJob = defineJob(CONSOLIDATE_KIND, consolidateSchema, async (job, env) => {
  const deps = createDeps(env);
  const context = await deps.db
    .prepare('SELECT * FROM contexts WHERE id = ?')
    .bind(job.context_id)
    .first<ContextRow>();
  // A deleted or blocked Context is not consolidated; the job is simply done.
  if (!context || context.enforcement_blocked === 1) return;
  // Maintenance acts for the Context itself; `mayClose` still keeps every merge inside the
  // scopes of the fact it closes, so no reader loses a value to a fact they cannot see.
  const all = ['*'];
  const store = deps.store(context.id);
  // Each run plans one window from where the last stopped (store/consolidation-set.ts): a first
  // pass walks the Context, a run chaining itself while facts remain; after it, each cadenced run
  // compares only the facts written since with the whole Context.
  const { response, through } = await consolidateLens(
    deps,
    context,
    { lens: [all], grants: { 'memory:read': all, 'memory:write': all, 'memory:forget': all } },
    { dryRun: false, after: await store.modelConsolidationMark() },
    providerOf(deps),
  );
  await store.modelSetConsolidationMark(through);
  if (response.next_cursor !== null) {
    await enqueueSuccessor(env, job);
  }
});
