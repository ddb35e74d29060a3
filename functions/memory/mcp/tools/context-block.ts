import { z } from 'zod';
import { buildContextBlock, MAX_CONTEXT_TOKENS } from '../../operations/context-block.ts';
import { contextIdField, defineTool, READ_ONLY } from '../tool.ts';
import { toolOutput } from '../tool-result.ts';

export const contextTool = defineTool({
  name: 'context',
  input: z.object({
    context_id: contextIdField,
    query: z.string().min(1).max(4_000).optional().describe('Focus the block on this question.'),
    session_id: z.string().min(1).optional().describe('Include this session’s recent turns.'),
    max_tokens: z.number().int().min(1).max(MAX_CONTEXT_TOKENS).optional(),
  }),
  output: toolOutput({
    context: z.string(),
    items: z.array(z.looseObject({ id: z.string(), kind: z.string(), content: z.string() })),
    tokens: z.number(),
  }),
  annotations: READ_ONLY,
  async run(args, ctx) {
    const block = await buildContextBlock(ctx.deps, ctx.auth, {
      contextId: await ctx.enter(args.context_id),
      query: args.query,
      session_id: args.session_id,
      max_tokens: args.max_tokens,
    });
    return { ...block };
  },
});
