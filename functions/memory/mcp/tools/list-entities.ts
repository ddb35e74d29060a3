import { z } from 'zod';
import { listEntities } from '../../operations/entities.ts';
import { contextIdField, defineTool, READ_ONLY } from '../tool.ts';
import { toolOutput } from '../tool-result.ts';

export const listEntitiesTool = defineTool({
  name: 'list_entities',
  input: z.object({
    context_id: contextIdField,
    prefix: z.string().min(1).max(200).optional().describe('Only names starting with this.'),
    limit: z.number().int().min(1).max(100).default(50),
    cursor: z.string().min(1).max(200).optional().describe('next_cursor of the previous page.'),
  }),
  output: toolOutput({
    entities: z.array(
      z.object({
        name: z.string(),
        display: z.string(),
        items: z.number(),
        items_more: z.boolean(),
      }),
    ),
    next_cursor: z.string().nullable(),
  }),
  annotations: READ_ONLY,
  async run(args, ctx) {
    return listEntities(ctx.deps, ctx.auth, {
      contextId: await ctx.enter(args.context_id),
      prefix: args.prefix ?? null,
      limit: args.limit,
      cursor: args.cursor ?? null,
    });
  },
});
