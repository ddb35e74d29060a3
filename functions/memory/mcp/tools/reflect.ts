import { z } from 'zod';
import { reflect } from '../../operations/reflect.ts';
import { contextIdField, defineTool, lensField, WRITES_NEW } from '../tool.ts';
import { toolOutput } from '../tool-result.ts';

export const reflectTool = defineTool({
  name: 'reflect',
  input: z.object({
    context_id: contextIdField,
    lens: lensField,
    persist: z
      .boolean()
      .optional()
      .describe(
        'Store the insights as reflections; needs a supervisor key (403 for an agent key).',
      ),
  }),
  output: toolOutput({
    insights: z.array(z.looseObject({})),
    persisted: z.boolean(),
    facts_considered: z.number(),
  }),
  annotations: WRITES_NEW,
  async run(args, ctx) {
    const contextId = await ctx.enter(args.context_id);
    await ctx.report.progress(0, 1, 'reflecting over the facts in the lens');
    const outcome = await reflect(ctx.deps, ctx.auth, {
      contextId,
      lens: args.lens,
      persist: args.persist,
    });
    const r = outcome.response;
    await ctx.report.progress(
      1,
      1,
      `${r.insights.length} insights from ${r.facts_considered} facts${r.persisted ? ', persisted' : ''}`,
    );
    return { ...r };
  },
});
