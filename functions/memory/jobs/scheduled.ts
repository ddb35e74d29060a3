import { LATEST_SCHEMA_VERSION } from '../store/schema/index.ts';
import { contextsToMigrate } from './context-versions.ts';
import { enqueueDedupedJobs, type EnqueueDeps } from './enqueue.ts';
import {
  enqueueMaintenance,
  MAINTENANCE_HOOKS,
  type MaintenanceEnqueued,
  type MaintenanceHook,
} from './maintenance.ts';
import { hasRole } from './roles.ts';

export interface TickReport {
  /** Job ids of the context_migrate jobs enqueued by this tick. */
  migrations: string[];
  maintenance: MaintenanceEnqueued[];
}

/**
 * One scheduler tick: a context_migrate job for every Context behind the code's latest schema
 * (deduplicated against pending ones, so a slow rollout never piles up jobs), then the due
 * maintenance hooks for migration-ready Contexts.
 */
export async function runSchedulerTick(
  env: EnqueueDeps,
  scheduledTime: number,
  hooks: readonly MaintenanceHook[] = MAINTENANCE_HOOKS,
  latest: number = LATEST_SCHEMA_VERSION,
): Promise<TickReport> {
  const behind = await contextsToMigrate(env.DB, latest);
  const migrations = await enqueueDedupedJobs(
    env,
    behind.map((context_id) => ({ kind: 'context_migrate', context_id, target_version: latest })),
  );
  const maintenance = await enqueueMaintenance(env, hooks, scheduledTime, latest);
  return { migrations, maintenance };
}

/** The cron trigger; only the scheduler role acts on it. */
export async function handleScheduled(controller: ScheduledController, env: Env): Promise<void> {
  if (!hasRole(env, 'scheduler')) return;
  const report = await runSchedulerTick(env, controller.scheduledTime);
  if (report.migrations.length > 0) {
    console.log(`scheduler: enqueued ${report.migrations.length} context_migrate job(s)`);
  }
}
