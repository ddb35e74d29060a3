import { z } from 'zod';
import { createDeps } from '../operations/create-deps.ts';
import { REEMBED_KIND, reembedContext } from '../operations/reembed.ts';
import { defineJob } from './define-job.ts';
import { enqueueSuccessor } from './enqueue.ts';
import { jobBaseSchema } from './messages.ts';

/** Re-embed a Context's items whose vectors belong to another embedding model. */
export const reembedSchema = jobBaseSchema.extend({ kind: z.literal(REEMBED_KIND) });

export const reembedJob = defineJob(REEMBED_KIND, reembedSchema, async (job, env) => {
  const deps = createDeps(env);
  const remaining = await reembedContext(deps, job.context_id);
  // One run does a bounded amount of work; the rest goes to its successor, which takes over the
  // dedup claim (a plain deduplicated request would be refused while this job holds it).
  if (remaining > 0) await enqueueSuccessor(env, job);
});
