import { z } from 'zod';
import { factHistory } from '../../operations/fact-versions.ts';
import { contextIdField, defineTool, READ_ONLY } from '../tool.ts';
import { toolOutput } from '../tool-result.ts';
import { factOutput } from './remember.ts';

export const factHistoryTool = defineTool({
  name: 'fact_history',
  input: z.object({
    context_id: contextIdField,
    id: z.string().min(1).max(200).describe('Any version of the fact.'),
  }),
  output: toolOutput({ id: z.string(), versions: z.array(factOutput) }),
  annotations: READ_ONLY,
  async run(args, ctx) {
    return factHistory(ctx.deps, ctx.auth, {
      contextId: await ctx.enter(args.context_id),
      id: args.id,
    });
  },
});
