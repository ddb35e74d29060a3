import type { z } from 'zod';

/** A job kind's handler with its message schema erased, as the registry holds it. */
export interface RegisteredJob {
  kind: string;
  /** Validates a message; a message that fails is dead-lettered at once, never retried. */
  prepare(
    body: unknown,
  ): { ok: true; run: (env: Env) => Promise<void> } | { ok: false; error: string };
  /** Called once the job has been dead-lettered, with its last error (e.g. to fail a document). */
  onDead?(body: unknown, env: Env, error: string): Promise<void>;
}

/**
 * Declares the handler of one job kind. `run` throws to have the queue retry the message (after
 * `max_retries` it lands in `memory-jobs-dlq`); it must be idempotent, since a message can be
 * delivered again after a crash at any step.
 */
export function defineJob<T>(
  kind: string,
  schema: z.ZodType<T>,
  run: (job: T, env: Env) => Promise<void>,
  onDead?: (job: T, env: Env, error: string) => Promise<void>,
): RegisteredJob {
  return {
    kind,
    async onDead(body, env, error) {
      const parsed = schema.safeParse(body);
      if (onDead && parsed.success) await onDead(parsed.data, env, error);
    },
    prepare(body) {
      const parsed = schema.safeParse(body);
      if (!parsed.success) {
        const issues = parsed.error.issues.map(
          (i) => `${i.path.join('.') || '(root)'}: ${i.message}`,
        );
        return { ok: false, error: `invalid ${kind} message: ${issues.join('; ')}` };
      }
      return { ok: true, run: (env) => run(parsed.data, env) };
    },
  };
}
