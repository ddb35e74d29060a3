import { z } from 'zod';
import { getDocument } from '../../operations/documents.ts';
import { getFact } from '../../operations/facts.ts';
import { contextIdField, defineTool, READ_ONLY } from '../tool.ts';
import { toolOutput } from '../tool-result.ts';

/** Documents are named `document:<id>` on every surface; the store keeps the bare id. */
export function documentId(bare: string): string {
  return bare.startsWith('document:') ? bare : `document:${bare}`;
}

export const inspectTool = defineTool({
  name: 'inspect',
  input: z.object({
    context_id: contextIdField,
    id: z
      .string()
      .min(1)
      .max(200)
      .describe(
        'A document id (document:<id>) for its status, error and timestamps, or a fact id.',
      ),
  }),
  output: toolOutput({
    kind: z.enum(['document', 'item']),
    document: z.looseObject({ id: z.string(), status: z.string() }),
    item: z.looseObject({ id: z.string(), kind: z.string(), content: z.string() }),
  }),
  annotations: READ_ONLY,
  async run(args, ctx) {
    const input = { contextId: await ctx.enter(args.context_id), id: args.id };
    if (args.id.startsWith('document:')) {
      const doc = await getDocument(ctx.deps, ctx.auth, input);
      return { kind: 'document', document: { ...doc, id: documentId(doc.id) } };
    }
    return { kind: 'item', item: { ...(await getFact(ctx.deps, ctx.auth, input)) } };
  },
});
