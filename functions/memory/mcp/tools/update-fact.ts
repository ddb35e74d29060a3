import { z } from 'zod';
import { updateFact } from '../../operations/fact-versions.ts';
import { contextIdField, defineTool, WRITES_NEW } from '../tool.ts';
import { toolOutput } from '../tool-result.ts';
import { factOutput } from './remember.ts';

export const updateFactTool = defineTool({
  name: 'update_fact',
  input: z.object({
    context_id: contextIdField,
    id: z.string().min(1).max(200).describe('The current version of the fact.'),
    content: z.string().min(1).max(32_000).describe('The new text of the fact.'),
    scopes: z
      .array(z.string().min(1))
      .max(32)
      .optional()
      .describe(
        'New scopes (inside the write grant, keeping every scope of the old version); the old version’s when absent.',
      ),
    metadata: z.record(z.string(), z.json()).optional(),
  }),
  output: toolOutput({ fact: factOutput, replaces: z.string() }),
  // Not destructive: the old version is kept as history, only closed.
  annotations: WRITES_NEW,
  async run(args, ctx) {
    const outcome = await updateFact(ctx.deps, ctx.auth, {
      contextId: await ctx.enter(args.context_id),
      id: args.id,
      content: args.content,
      scopes: args.scopes,
      metadata: args.metadata,
    });
    return { ...outcome };
  },
});
