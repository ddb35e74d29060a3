import { claimDedup, dedupKeyFor, insertJobStatement } from './job-log.ts';
import type { ContextSelection } from './context-versions.ts';
import type { JobEnvelope } from './messages.ts';

export interface EnqueueDeps {
  DB: D1Database;
  JOBS: Queue;
}

export type EnqueueResult =
  { enqueued: true; job_id: string } | { enqueued: false; reason: 'pending' };

/**
 * Records a job in D1 and sends it to `memory-jobs`. With `dedup`, a second job of the same kind
 * for the same Context is not enqueued while the first is pending.
 */
export async function enqueueJob(
  env: EnqueueDeps,
  request: Omit<JobEnvelope, 'job_id'>,
  options: { dedup?: boolean } = {},
): Promise<EnqueueResult> {
  const job = { ...request, job_id: `job_${crypto.randomUUID()}` } as JobEnvelope;
  if (
    options.dedup &&
    !(await claimDedup(env.DB, dedupKeyFor(job.kind, job.context_id), job.job_id))
  ) {
    return { enqueued: false, reason: 'pending' };
  }
  await insertJobStatement(env.DB, job).run();
  await env.JOBS.send(job, { contentType: 'json' });
  return { enqueued: true, job_id: job.job_id };
}

/**
 * Enqueues the next run of a job that works in bounded pieces (re-embedding, consolidation) and
 * hands it the running job's dedup claim. The claim is released only when a job succeeds, so a
 * plain deduplicated enqueue from inside the running job is refused as pending and the chain
 * stops after its first piece. The successor is sent before the claim moves: if the send fails,
 * the running job fails with its claim intact and its retry tries again.
 */
export async function enqueueSuccessor(
  env: EnqueueDeps,
  current: JobEnvelope,
): Promise<EnqueueResult> {
  const key = dedupKeyFor(current.kind, current.context_id);
  // The same job's body (a migration's target too) under a new id.
  const job: JobEnvelope = { ...current, job_id: `job_${crypto.randomUUID()}` };
  const holder = await env.DB.prepare('SELECT job_id FROM job_dedup WHERE dedup_key = ?')
    .bind(key)
    .first<{ job_id: string }>();
  const inherits = holder?.job_id === current.job_id;
  if (!inherits && !(await claimDedup(env.DB, key, job.job_id))) {
    return { enqueued: false, reason: 'pending' };
  }
  await insertJobStatement(env.DB, job).run();
  await env.JOBS.send(job, { contentType: 'json' });
  if (inherits) {
    await env.DB.prepare('UPDATE job_dedup SET job_id = ? WHERE dedup_key = ? AND job_id = ?')
      .bind(job.job_id, key, current.job_id)
      .run();
  }
  return { enqueued: true, job_id: job.job_id };
}

/** Upper bound on jobs one tick enqueues per kind; the next tick continues (Workers limit subrequests). */
export const MAX_JOBS_PER_TICK = 1000;
const SEND_BATCH = 100;

async function sendBodies(env: EnqueueDeps, bodies: string[]): Promise<void> {
  for (let i = 0; i < bodies.length; i += SEND_BATCH) {
    await env.JOBS.sendBatch(
      bodies
        .slice(i, i + SEND_BATCH)
        .map((b) => ({ body: JSON.parse(b) as unknown, contentType: 'json' as const })),
    );
  }
}

/**
 * The scheduler's bulk path: one job of `kind` (with `extra` fields) per selected Context that has
 * none pending, as three set-based queries (claim, record, read back) and sends of 100 messages,
 * so a tick over thousands of Contexts stays a handful of round trips. Returns the new job ids.
 */
export async function enqueueForContexts(
  env: EnqueueDeps,
  kind: string,
  extra: Record<string, string | number>,
  selection: ContextSelection,
  limit: number = MAX_JOBS_PER_TICK,
): Promise<string[]> {
  const prefix = `job_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}_`;
  const now = new Date().toISOString();
  const keyStart = kind.length + 2;
  // Pending Contexts are skipped before the limit applies, so a capped tick reaches new ones.
  await env.DB.prepare(
    `INSERT OR IGNORE INTO job_dedup (dedup_key, job_id, created_at)
     SELECT ? || ':' || id, ? || lower(hex(randomblob(8))), ? FROM (${selection.sql})
     WHERE ? || ':' || id NOT IN (SELECT dedup_key FROM job_dedup) LIMIT ?`,
  )
    .bind(kind, prefix, now, ...selection.binds, kind, limit)
    .run();
  // The claims this call won are exactly the ones carrying its job id prefix.
  const { results } = await env.DB.prepare(
    `INSERT INTO jobs (id, kind, context_id, status, attempts, body, created_at, updated_at)
     SELECT job_id, ?, substr(dedup_key, ?), 'queued', 0,
       json_patch(?, json_object('job_id', job_id, 'kind', ?, 'context_id', substr(dedup_key, ?))),
       ?, ?
     FROM job_dedup WHERE substr(job_id, 1, ?) = ?
     RETURNING id, body`,
  )
    .bind(kind, keyStart, JSON.stringify(extra), kind, keyStart, now, now, prefix.length, prefix)
    .all<{ id: string; body: string }>();
  await sendBodies(
    env,
    results.map((r) => r.body),
  );
  return results.map((r) => r.id);
}

/**
 * Re-sends jobs still `queued` (never picked up) after `olderThanMs`: their message was lost, e.g.
 * a tick that died between recording and sending. Same job id, so nothing runs twice: a late
 * original and the re-send finish once between them.
 */
export async function resendStaleJobs(
  env: EnqueueDeps,
  olderThanMs: number,
  limit: number = MAX_JOBS_PER_TICK,
): Promise<string[]> {
  const now = Date.now();
  const { results } = await env.DB.prepare(
    `UPDATE jobs SET updated_at = ?
     WHERE id IN (SELECT id FROM jobs WHERE status = 'queued' AND updated_at < ? ORDER BY updated_at LIMIT ?)
     RETURNING id, body`,
  )
    .bind(new Date(now).toISOString(), new Date(now - olderThanMs).toISOString(), limit)
    .all<{ id: string; body: string }>();
  await sendBodies(
    env,
    results.map((r) => r.body),
  );
  return results.map((r) => r.id);
}
