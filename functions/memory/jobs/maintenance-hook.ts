/**
 * A cadenced maintenance job: every `everyMinutes` the scheduler enqueues one job of `kind` per
 * migration-ready Context. The job kind needs a handler in registry.ts. Its own module so the jobs
 * that declare a hook and the scheduler that runs them import it without importing each other.
 */
export interface MaintenanceHook {
  kind: string;
  everyMinutes: number;
}
