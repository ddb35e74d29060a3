import { LATEST_SCHEMA_VERSION } from '../store/schema/index.ts';
import { enqueueDueBackups } from './context-backup.ts';
import { runContextPurges } from './context-purge.ts';
import { behindContexts } from './context-versions.ts';
import { enqueueForContexts, resendStaleJobs, type EnqueueDeps } from './enqueue.ts';
import {
  enqueueMaintenance,
  MAINTENANCE_HOOKS,
  type MaintenanceEnqueued,
  type MaintenanceHook,
} from './maintenance.ts';
import { hasRole } from './roles.ts';

/** A job still `queued` this long after it was sent is taken as lost and sent again. */
export const STALE_QUEUED_MS = 10 * 60_000;

export interface TickReport {
  /** Job ids of the context_migrate jobs enqueued by this tick. */
  migrations: string[];
  /** Job ids re-sent because their message was lost. */
  resent: string[];
  maintenance: MaintenanceEnqueued[];
  /** Job ids of the scheduled backups (opt-in per Context) that came due. */
  backups: string[];
}

/**
 * One scheduler tick: lost messages re-sent, a context_migrate job for every Context behind the
 * code's latest schema (deduplicated against pending ones, so a slow rollout never piles up
 * jobs; at most MAX_JOBS_PER_TICK, the next tick continues), then the due maintenance hooks for
 * migration-ready Contexts, then the scheduled backups that came due.
 */
export async function runSchedulerTick(
  env: EnqueueDeps,
  scheduledTime: number,
  hooks: readonly MaintenanceHook[] = MAINTENANCE_HOOKS,
  latest: number = LATEST_SCHEMA_VERSION,
): Promise<TickReport> {
  const resent = await resendStaleJobs(env, STALE_QUEUED_MS);
  const migrations = await enqueueForContexts(
    env,
    'context_migrate',
    { target_version: latest },
    behindContexts(latest),
  );
  const maintenance = await enqueueMaintenance(env, hooks, scheduledTime, latest);
  const backups = await enqueueDueBackups(env, scheduledTime);
  return { migrations, resent, maintenance, backups };
}

/** The cron trigger; only the scheduler role acts on it. */
export async function handleScheduled(controller: ScheduledController, env: Env): Promise<void> {
  if (!hasRole(env, 'scheduler')) return;
  const report = await runSchedulerTick(env, controller.scheduledTime);
  if (report.migrations.length > 0) {
    console.log(`scheduler: enqueued ${report.migrations.length} context_migrate job(s)`);
  }
  // Deleted Contexts' files and expired backups in R2 (D1 0050), bounded per tick.
  const purged = await runContextPurges(env, controller.scheduledTime);
  if (purged.files.length + purged.backups.length > 0) {
    console.log(
      `scheduler: purged files of ${purged.files.length}, backups of ${purged.backups.length} deleted Context(s)`,
    );
  }
}
