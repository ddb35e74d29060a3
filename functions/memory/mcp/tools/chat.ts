import { z } from 'zod';
import { chat } from '../../operations/chat.ts';
import { contextIdField, defineTool, lensField, WRITES_NEW } from '../tool.ts';
import { toolOutput } from '../tool-result.ts';

export const chatTool = defineTool({
  name: 'chat',
  input: z.object({
    context_id: contextIdField,
    message: z.string().min(1).max(16_000).describe('The question or message to answer.'),
    session_id: z.string().min(1).optional().describe('Use this session’s history.'),
    lens: lensField,
  }),
  output: toolOutput({
    answer: z.string(),
    citations: z.array(z.looseObject({})),
    known: z.boolean(),
  }),
  annotations: WRITES_NEW,
  async run(args, ctx) {
    const outcome = await chat(ctx.deps, ctx.auth, {
      contextId: await ctx.enter(args.context_id),
      message: args.message,
      session_id: args.session_id,
      lens: args.lens,
    });
    return { ...outcome.response };
  },
});
