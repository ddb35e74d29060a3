import type { JobEnvelope } from './messages.ts';

/**
 * The D1 record of every job (migrations/0010_jobs.sql). The queue carries the message; this
 * table carries its state, its last error and its dedup claim, so any worker can pick up where
 * another stopped and `/migrations` can report without reading the queue.
 */

const now = () => new Date().toISOString();

export function dedupKeyFor(kind: string, contextId: string): string {
  return `${kind}:${contextId}`;
}

/** Claims `dedupKey` for `jobId`; false when another job already holds it (still pending). */
export async function claimDedup(
  db: D1Database,
  dedupKey: string,
  jobId: string,
): Promise<boolean> {
  const res = await db
    .prepare('INSERT OR IGNORE INTO job_dedup (dedup_key, job_id, created_at) VALUES (?, ?, ?)')
    .bind(dedupKey, jobId, now())
    .run();
  return res.meta.changes === 1;
}

export function insertJobStatement(db: D1Database, job: JobEnvelope): D1PreparedStatement {
  const at = now();
  return db
    .prepare(
      `INSERT INTO jobs (id, kind, context_id, status, attempts, body, created_at, updated_at)
       VALUES (?, ?, ?, 'queued', 0, ?, ?, ?)`,
    )
    .bind(job.job_id, job.kind, job.context_id, JSON.stringify(job), at, at);
}

export async function markRunning(db: D1Database, jobId: string, attempts: number): Promise<void> {
  await db
    .prepare(`UPDATE jobs SET status = 'running', attempts = ?, updated_at = ? WHERE id = ?`)
    .bind(attempts, now(), jobId)
    .run();
}

/** Ends a job successfully, releases its dedup claim and, for migrations, marks the Context ready. */
export async function markSucceeded(db: D1Database, job: JobEnvelope): Promise<void> {
  const at = now();
  const statements = [
    db
      .prepare(
        `UPDATE jobs SET status = 'succeeded', error = NULL, updated_at = ?, completed_at = ? WHERE id = ?`,
      )
      .bind(at, at, job.job_id),
    db.prepare('DELETE FROM job_dedup WHERE job_id = ?').bind(job.job_id),
  ];
  if (job.kind === 'context_migrate') {
    statements.push(
      db
        .prepare(
          `INSERT INTO context_job_health (context_id, last_migrate_success_at) VALUES (?, ?)
           ON CONFLICT (context_id) DO UPDATE SET last_migrate_success_at = excluded.last_migrate_success_at`,
        )
        .bind(job.context_id, at),
    );
  }
  await db.batch(statements);
}

/** Remembers why an attempt failed; the queue retries the message, then dead-letters it. */
export async function markFailed(
  db: D1Database,
  jobId: string,
  attempts: number,
  error: string,
): Promise<void> {
  await db
    .prepare(
      `UPDATE jobs SET status = 'retrying', attempts = ?, error = ?, updated_at = ? WHERE id = ?`,
    )
    .bind(attempts, error, now(), jobId)
    .run();
}

export interface JobRow extends Record<string, unknown> {
  id: string;
  kind: string;
  context_id: string;
  status: string;
  attempts: number;
  error: string | null;
  body: string;
}

export async function getJob(db: D1Database, jobId: string): Promise<JobRow | null> {
  return db.prepare('SELECT * FROM jobs WHERE id = ?').bind(jobId).first<JobRow>();
}

/**
 * Records a dead-lettered job (the DLQ consumer's whole job): the DLQ record with the last error
 * the worker saw, the job marked dead, its dedup claim released, and for a migration the Context
 * marked not migration-ready. Idempotent on the job id, since the DLQ may redeliver too.
 */
export async function recordDeadLetter(
  db: D1Database,
  job: JobEnvelope,
  fallback: { error: string; attempts: number },
): Promise<{ error: string; attempts: number }> {
  const row = await getJob(db, job.job_id);
  const error = row?.error ?? fallback.error;
  const attempts = Math.max(row?.attempts ?? 0, fallback.attempts);
  const at = now();
  const statements = [
    db
      .prepare(
        `INSERT INTO dlq_records (id, job_id, kind, context_id, error, attempts, recorded_at)
         SELECT ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM dlq_records WHERE job_id = ?)`,
      )
      .bind(
        `dlq_${crypto.randomUUID()}`,
        job.job_id,
        job.kind,
        job.context_id,
        error,
        attempts,
        at,
        job.job_id,
      ),
    db.prepare(`UPDATE jobs SET status = 'dead', updated_at = ? WHERE id = ?`).bind(at, job.job_id),
    db.prepare('DELETE FROM job_dedup WHERE job_id = ?').bind(job.job_id),
  ];
  if (job.kind === 'context_migrate') {
    statements.push(
      db
        .prepare(
          `INSERT INTO context_job_health (context_id, last_migrate_dead_at) VALUES (?, ?)
           ON CONFLICT (context_id) DO UPDATE SET last_migrate_dead_at = excluded.last_migrate_dead_at`,
        )
        .bind(job.context_id, at),
    );
  }
  await db.batch(statements);
  return { error, attempts };
}
