import { recordSchemaVersion } from './context-versions.ts';
import { defineJob } from './define-job.ts';
import { enqueueSuccessor } from './enqueue.ts';
import { contextMigrateSchema, type ContextMigrateJob } from './messages.ts';

/** Long enough for every pending step of one Context; a crashed holder's lease simply expires. */
export const MIGRATION_LEASE_MS = 60_000;

/**
 * `context_migrate`: take the Context's lease, apply its pending schema steps under the lease's
 * fencing token (each step in its own transaction, `schema_version` stamped monotonically), then
 * record the new version in the D1 registry. A step that rewrites every row of a large Context
 * goes a bounded number of rows a run (store/migrate-fenced.ts); the rest goes to a successor job,
 * which inherits this one's dedup claim. Throws (so the queue retries) when the lease is busy,
 * the token is stale or a step fails.
 */
export async function migrateContext(job: ContextMigrateJob, env: Env): Promise<void> {
  const lease = env.CONTEXT_LEASE.getByName(job.context_id);
  const grant = await lease.acquire(job.job_id, MIGRATION_LEASE_MS);
  if (!grant.ok) {
    throw new Error(
      `lease of context ${job.context_id} is held by ${grant.holder}; retrying later`,
    );
  }
  let pending = false;
  try {
    const store = env.CONTEXT_STORE.getByName(job.context_id);
    const result = await store.migrateSchema(grant.token, job.target_version);
    if (!result.ok) throw new Error(result.error);
    await recordSchemaVersion(env.DB, job.context_id, result.version);
    pending = result.pending;
  } finally {
    await lease.release(grant.token);
  }
  if (pending) await enqueueSuccessor(env, job);
}

export const contextMigrateJob = defineJob('context_migrate', contextMigrateSchema, migrateContext);
