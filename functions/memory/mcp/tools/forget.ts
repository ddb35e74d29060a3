import { z } from 'zod';
import { deleteDocument } from '../../operations/documents.ts';
import { deleteFact } from '../../operations/facts.ts';
import { contextIdField, defineTool } from '../tool.ts';
import { toolOutput } from '../tool-result.ts';

export const forgetTool = defineTool({
  name: 'forget',
  input: z.object({
    context_id: contextIdField,
    id: z
      .string()
      .min(1)
      .max(200)
      .describe(
        'A fact id, or a document id (document:<id>) to delete the document and its chunks.',
      ),
  }),
  output: toolOutput({ id: z.string(), deleted: z.boolean() }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  async run(args, ctx) {
    const input = { contextId: await ctx.enter(args.context_id), id: args.id };
    if (args.id.startsWith('document:')) await deleteDocument(ctx.deps, ctx.auth, input);
    else await deleteFact(ctx.deps, ctx.auth, input);
    return { id: args.id, deleted: true };
  },
});
