import { z } from 'zod';
import { listFacts } from '../../operations/facts.ts';
import { contextIdField, defineTool, lensField, READ_ONLY } from '../tool.ts';
import { toolOutput } from '../tool-result.ts';
import { factOutput } from './remember.ts';

export const listFactsTool = defineTool({
  name: 'list_facts',
  input: z.object({
    context_id: contextIdField,
    lens: lensField,
    limit: z.number().int().min(1).max(100).default(50).describe('Facts per page, 1-100.'),
    cursor: z.string().min(1).max(200).optional().describe('next_cursor of the previous page.'),
    include_superseded: z
      .boolean()
      .default(false)
      .describe('Also list facts that a newer version superseded.'),
  }),
  output: toolOutput({ facts: z.array(factOutput), next_cursor: z.string().nullable() }),
  annotations: READ_ONLY,
  async run(args, ctx) {
    return listFacts(ctx.deps, ctx.auth, {
      contextId: await ctx.enter(args.context_id),
      cursor: args.cursor ?? null,
      limit: args.limit,
      lens: args.lens,
      kind: 'fact',
      includeSuperseded: args.include_superseded,
    });
  },
});
