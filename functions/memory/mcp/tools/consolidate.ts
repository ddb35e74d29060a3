import { z } from 'zod';
import { consolidate } from '../../operations/consolidate.ts';
import { contextIdField, defineTool, lensField } from '../tool.ts';
import { toolOutput } from '../tool-result.ts';

export const consolidateTool = defineTool({
  name: 'consolidate',
  input: z.object({
    context_id: contextIdField,
    lens: lensField,
    dry_run: z.boolean().optional().describe('Preview the decisions without applying them.'),
  }),
  output: toolOutput({
    decisions: z.array(z.looseObject({})),
    dry_run: z.boolean(),
    applied: z.number(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  async run(args, ctx) {
    const outcome = await consolidate(ctx.deps, ctx.auth, {
      contextId: await ctx.enter(args.context_id),
      lens: args.lens,
      dry_run: args.dry_run,
    });
    return { ...outcome.response };
  },
});
