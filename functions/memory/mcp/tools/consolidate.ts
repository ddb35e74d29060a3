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
    cursor: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe('A next_cursor from an earlier call: the next window of a large Context.'),
  }),
  output: toolOutput({
    decisions: z.array(z.looseObject({})),
    dry_run: z.boolean(),
    applied: z.number(),
    next_cursor: z.string().nullable(),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  async run(args, ctx) {
    const contextId = await ctx.enter(args.context_id);
    await ctx.report.progress(0, 1, 'looking for duplicate and stale facts');
    const outcome = await consolidate(ctx.deps, ctx.auth, {
      contextId,
      lens: args.lens,
      dry_run: args.dry_run,
      cursor: args.cursor,
    });
    const r = outcome.response;
    await ctx.report.progress(
      1,
      1,
      `${r.decisions.length} decisions, ${r.applied} applied${r.dry_run ? ' (dry run)' : ''}`,
    );
    return { ...r };
  },
});
