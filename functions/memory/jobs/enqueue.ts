import { claimDedup, dedupKeyFor, insertJobStatement } from './job-log.ts';
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
 * The scheduler's bulk path: one D1 batch for the dedup claims, one for the job rows, and queue
 * sends of up to 100 messages, so a tick over thousands of Contexts stays a handful of round trips.
 */
export async function enqueueDedupedJobs(
  env: EnqueueDeps,
  requests: Omit<JobEnvelope, 'job_id'>[],
): Promise<string[]> {
  const jobs = requests.map((r) => ({ ...r, job_id: `job_${crypto.randomUUID()}` }) as JobEnvelope);
  const claimed: JobEnvelope[] = [];
  for (let i = 0; i < jobs.length; i += 50) {
    const slice = jobs.slice(i, i + 50);
    const results = await env.DB.batch(
      slice.map((job) =>
        env.DB.prepare(
          'INSERT OR IGNORE INTO job_dedup (dedup_key, job_id, created_at) VALUES (?, ?, ?)',
        ).bind(dedupKeyFor(job.kind, job.context_id), job.job_id, new Date().toISOString()),
      ),
    );
    slice.forEach((job, j) => {
      if (results[j]?.meta.changes === 1) claimed.push(job);
    });
  }
  for (let i = 0; i < claimed.length; i += 50) {
    await env.DB.batch(claimed.slice(i, i + 50).map((job) => insertJobStatement(env.DB, job)));
  }
  for (let i = 0; i < claimed.length; i += 100) {
    await env.JOBS.sendBatch(
      claimed.slice(i, i + 100).map((body) => ({ body, contentType: 'json' as const })),
    );
  }
  return claimed.map((j) => j.job_id);
}
