import { z } from 'zod';

/** Fields every message on `memory-jobs` carries; each kind adds its own. */
export const jobBaseSchema = z.object({
  /** Row id in the D1 `jobs` table. */
  job_id: z.string().min(1),
  /** The Context the job works on. */
  context_id: z.string().min(1),
});

/** Turn an uploaded document into indexed chunks. */
export const documentProcessSchema = jobBaseSchema.extend({
  kind: z.literal('document_process'),
  /** Document id without the `document:` prefix. */
  document_id: z.string().min(1),
});

/** Bring a Context's schema up to `target_version` under its lease. */
export const contextMigrateSchema = jobBaseSchema.extend({
  kind: z.literal('context_migrate'),
  target_version: z.number().int().positive(),
});

export type DocumentProcessJob = z.infer<typeof documentProcessSchema>;
export type ContextMigrateJob = z.infer<typeof contextMigrateSchema>;

/** What `enqueueJob` needs: a message without its job id, which is assigned on enqueue. */
export type JobRequest<T extends { job_id: string }> = Omit<T, 'job_id'>;

/** Just enough of a message to find its handler and record it, before the kind's own schema. */
export const jobEnvelopeSchema = jobBaseSchema.extend({ kind: z.string().min(1) }).loose();
export type JobEnvelope = z.infer<typeof jobEnvelopeSchema>;
