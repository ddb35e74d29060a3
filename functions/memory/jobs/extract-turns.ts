import { z } from 'zod';
import { createDeps } from '../operations/create-deps.ts';
import { EXTRACT_TURNS_KIND, extractTurn } from '../operations/turn-extraction.ts';
import { actorSchema, authOfActor } from './actor.ts';
import { defineJob } from './define-job.ts';
import { jobBaseSchema } from './messages.ts';

/** Extract facts from one appended user turn (queued by the turn append). */
export const extractTurnsSchema = jobBaseSchema.extend({
  kind: z.literal(EXTRACT_TURNS_KIND),
  session_id: z.string().min(1),
  turn_id: z.string().min(1),
  /** Who added the turn, with their grants at that moment: extraction acts for them alone. */
  actor: actorSchema,
});

export const extractTurnsJob = defineJob(
  EXTRACT_TURNS_KIND,
  extractTurnsSchema,
  async (job, env) => {
    await extractTurn(createDeps(env), authOfActor(job.actor, job.context_id), {
      contextId: job.context_id,
      sessionId: job.session_id,
      turnId: job.turn_id,
    });
  },
);
