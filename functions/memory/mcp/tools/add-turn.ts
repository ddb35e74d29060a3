import { z } from 'zod';
import { MemoryError } from '../../errors.ts';
import { appendTurn, createSession, getSession, TURN_ROLES } from '../../operations/sessions.ts';
import { contextIdField, defineTool, WRITES_NEW } from '../tool.ts';
import { toolOutput } from '../tool-result.ts';

export const addTurnTool = defineTool({
  name: 'add_turn',
  input: z.object({
    context_id: contextIdField,
    session_id: z
      .string()
      .min(1)
      .max(128)
      .describe('The session; it is created when it does not exist yet.'),
    scopes: z
      .array(z.string().min(1))
      .max(32)
      .optional()
      .describe(
        'Scopes of the session when this call creates it (inside the write grant); omitted: unscoped, which needs the root write grant. Ignored for an existing session.',
      ),
    role: z.enum(TURN_ROLES).describe('user, assistant, system or tool.'),
    content: z.string().min(1).max(32_000),
    valid_from: z.iso
      .datetime({ offset: true })
      .optional()
      .describe(
        'When the turn was said, ISO 8601 (default: now). Facts extracted from it take this time.',
      ),
  }),
  output: toolOutput({
    turn: z.looseObject({ id: z.string(), session_id: z.string(), role: z.string() }),
    session_created: z.boolean(),
  }),
  annotations: WRITES_NEW,
  async run(args, ctx) {
    const contextId = await ctx.enter(args.context_id);
    let created = false;
    try {
      await getSession(ctx.deps, ctx.auth, { contextId, sessionId: args.session_id });
    } catch (err) {
      if (!(err instanceof MemoryError) || err.failure.kind !== 'not-found') throw err;
      try {
        await createSession(ctx.deps, ctx.auth, {
          contextId,
          id: args.session_id,
          scopes: args.scopes,
        });
      } catch (createErr) {
        // The id is taken by a session outside the read grant: absent to this key, as REST's
        // POST .../turns answers (404), so the tool does not tell it exists.
        if (createErr instanceof MemoryError && createErr.failure.kind === 'conflict') throw err;
        throw createErr;
      }
      created = true;
    }
    const turn = await appendTurn(ctx.deps, ctx.auth, {
      contextId,
      sessionId: args.session_id,
      role: args.role,
      content: args.content,
      ...(args.valid_from === undefined
        ? {}
        : { validFrom: new Date(args.valid_from).toISOString() }),
    });
    return { turn: { ...turn }, session_created: created };
  },
});
