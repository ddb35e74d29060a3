import { jobRegistry } from './registry.ts';
import { markFailed, markRunning, markSucceeded, recordDeadLetter } from './job-log.ts';
import { jobEnvelopeSchema, type JobEnvelope } from './messages.ts';
import { hasRole } from './roles.ts';
import { loadTables } from '../tables/load-tables.ts';

export const JOBS_QUEUE = 'memory-jobs';
export const DLQ_QUEUE = 'memory-jobs-dlq';

/**
 * The one queue handler: `memory-jobs` runs jobs, `memory-jobs-dlq` records what kept failing.
 * Only the worker role consumes; a deployment without it hands messages back to the queue.
 */
export async function handleQueue(batch: MessageBatch, env: Env): Promise<void> {
  if (!hasRole(env, 'worker')) {
    batch.retryAll();
    return;
  }
  if (batch.queue === DLQ_QUEUE) {
    for (const message of batch.messages) await recordDead(message, env);
    return;
  }
  // Jobs embed and count tokens in this isolate (documents, extraction, re-embedding): the
  // read-only tables first, once per isolate (docs/self-hosting.md).
  await loadTables(env.ASSETS);
  for (const message of batch.messages) await runMessage(message, env);
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function runMessage(message: Message, env: Env): Promise<void> {
  const envelope = jobEnvelopeSchema.safeParse(message.body);
  if (!envelope.success) {
    // Not even a job: nothing to record against a Context, and retrying cannot help.
    console.error('memory-jobs: dropping a message that is not a job', message.id);
    message.ack();
    return;
  }
  const job: JobEnvelope = envelope.data;
  const handler = jobRegistry.get(job.kind);
  const prepared = handler?.prepare(message.body) ?? {
    ok: false as const,
    error: `no handler for job kind ${job.kind}`,
  };
  if (!prepared.ok) {
    await recordDeadLetter(env.DB, job, { error: prepared.error, attempts: message.attempts });
    message.ack();
    return;
  }
  await markRunning(env.DB, job.job_id, message.attempts);
  try {
    await prepared.run(env);
  } catch (err) {
    console.error(`memory-jobs: ${job.kind} ${job.job_id} attempt ${message.attempts} failed`, err);
    await markFailed(env.DB, job.job_id, message.attempts, describe(err));
    message.retry();
    return;
  }
  await markSucceeded(env.DB, job);
  message.ack();
}

async function recordDead(message: Message, env: Env): Promise<void> {
  const envelope = jobEnvelopeSchema.safeParse(message.body);
  if (envelope.success) {
    const dead = await recordDeadLetter(env.DB, envelope.data, {
      error: 'the job failed on every attempt',
      attempts: message.attempts,
    });
    await jobRegistry.get(envelope.data.kind)?.onDead?.(message.body, env, dead.error);
  } else {
    console.error('memory-jobs-dlq: dropping a message that is not a job', message.id);
  }
  message.ack();
}
