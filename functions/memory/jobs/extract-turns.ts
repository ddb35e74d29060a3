import { z } from 'zod';
import { createDeps } from '../operations/deps.ts';
import { EXTRACT_TURNS_KIND, extractTurn } from '../operations/turn-extraction.ts';
import { defineJob } from './define-job.ts';
import { jobBaseSchema } from './messages.ts';

/** Extract facts from one appended user turn (queued by the turn append). */
export const extractTurnsSchema = jobBaseSchema.extend({
  kind: z.literal(EXTRACT_TURNS_KIND),
  session_id: z.string().min(1),
  turn_id: z.string().min(1),
});

export const extractTurnsJob = defineJob(
  EXTRACT_TURNS_KIND,
  extractTurnsSchema,
  async (job, env) => {
    await extractTurn(createDeps(env), {
      contextId: job.context_id,
      sessionId: job.session_id,
      turnId: job.turn_id,
    });
  },
);
