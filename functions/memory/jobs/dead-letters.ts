import { failure } from '../errors.ts';
import { enqueueJob } from './enqueue.ts';
import { getJob } from './job-log.ts';
import { jobEnvelopeSchema } from './messages.ts';

/** A dead-lettered job as `/migrations` shows it. */
export interface DeadLetter {
  id: string;
  context_id: string;
  job_id: string;
  kind: string;
  error: string;
  attempts: number;
  recorded_at: string;
  retried_at: string | null;
  retry_job_id: string | null;
}

export async function listDeadLetters(db: D1Database, limit = 100): Promise<DeadLetter[]> {
  const { results } = await db
    .prepare(
      `SELECT id, context_id, job_id, kind, error, attempts, recorded_at, retried_at, retry_job_id
         FROM dlq_records ORDER BY recorded_at DESC, id LIMIT ?`,
    )
    .bind(limit)
    .all<DeadLetter>();
  return results;
}

/**
 * Re-enqueues a dead-lettered job with its original payload under a new job id. A migration is
 * deduplicated like the scheduler's, so a retry never runs beside a pending one. 404 for an
 * unknown entry, 409 when it was already retried.
 */
export async function retryDeadLetter(
  env: { DB: D1Database; JOBS: Queue },
  id: string,
): Promise<{ job_id: string }> {
  const record = await env.DB.prepare('SELECT * FROM dlq_records WHERE id = ?')
    .bind(id)
    .first<DeadLetter>();
  if (!record) throw failure('not-found', `no dead-letter entry ${id}`);
  if (record.retried_at !== null) {
    throw failure(
      'conflict',
      `dead-letter entry ${id} was already retried as job ${String(record.retry_job_id)}`,
    );
  }
  const job = await getJob(env.DB, record.job_id);
  const original = jobEnvelopeSchema.safeParse(job ? JSON.parse(job.body) : null);
  if (!original.success)
    throw failure('unprocessable', `the job behind ${id} has no replayable message`);
  const { job_id: _old, ...request } = original.data;
  const result = await enqueueJob(env, request, { dedup: request.kind === 'context_migrate' });
  if (!result.enqueued)
    throw failure(
      'conflict',
      `a ${request.kind} job for Context ${request.context_id} is already pending`,
    );
  await env.DB.prepare('UPDATE dlq_records SET retried_at = ?, retry_job_id = ? WHERE id = ?')
    .bind(new Date().toISOString(), result.job_id, id)
    .run();
  return { job_id: result.job_id };
}
