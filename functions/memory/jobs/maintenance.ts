import type { MaintenanceHook } from './maintenance-hook.ts';
import { LATEST_SCHEMA_VERSION } from '../store/schema/index.ts';
import { CONSOLIDATE_HOOK } from './consolidate.ts';
import { migrationReadyContexts } from './context-versions.ts';
import { enqueueForContexts, type EnqueueDeps } from './enqueue.ts';
import { RECONCILE_BLOBS_HOOK } from './reconcile-blobs.ts';

export type { MaintenanceHook } from './maintenance-hook.ts';

/** The hooks the scheduler runs. The model-backed issue adds e.g. `{ kind: 'consolidate', ... }`. */
export const MAINTENANCE_HOOKS: MaintenanceHook[] = [CONSOLIDATE_HOOK, RECONCILE_BLOBS_HOOK];

/** Hooks due at the cron tick `scheduledTime` (ms): minute numbers divisible by the cadence. */
export function dueHooks(
  hooks: readonly MaintenanceHook[],
  scheduledTime: number,
): MaintenanceHook[] {
  const minute = Math.floor(scheduledTime / 60_000);
  return hooks.filter((h) => h.everyMinutes > 0 && minute % h.everyMinutes === 0);
}

export interface MaintenanceEnqueued {
  kind: string;
  job_ids: string[];
}

/**
 * Enqueues the due hooks' jobs for migration-ready Contexts only: a Context that is behind or
 * whose migration was dead-lettered is skipped until a later migration succeeds.
 */
export async function enqueueMaintenance(
  env: EnqueueDeps,
  hooks: readonly MaintenanceHook[],
  scheduledTime: number,
  latest: number = LATEST_SCHEMA_VERSION,
): Promise<MaintenanceEnqueued[]> {
  const due = dueHooks(hooks, scheduledTime);
  if (due.length === 0) return [];
  const out: MaintenanceEnqueued[] = [];
  for (const hook of due) {
    const job_ids = await enqueueForContexts(env, hook.kind, {}, migrationReadyContexts(latest));
    out.push({ kind: hook.kind, job_ids });
  }
  return out;
}
