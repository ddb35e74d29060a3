import { z } from 'zod';
import { DEFAULT_K, DEFAULT_MODE, MAX_K, MAX_NEIGHBOURS, query } from '../../operations/query.ts';
import { SEARCH_MODES } from '../../store/types.ts';
import { contextIdField, defineTool, lensField, READ_ONLY } from '../tool.ts';
import { toolOutput } from '../tool-result.ts';

const hit = z.looseObject({
  id: z.string(),
  kind: z.string(),
  content: z.string(),
  score: z.number(),
  scopes: z.array(z.string()),
});

export const recallTool = defineTool({
  name: 'recall',
  input: z.object({
    context_id: contextIdField,
    query: z.string().min(1).max(4_000).describe('What to look for, in plain language.'),
    mode: z.enum(SEARCH_MODES).default(DEFAULT_MODE).describe(
      // Named from the constant: a hard-coded name went on saying `hybrid` while the default
      // was `hybrid_graph`.
      `vector, bm25, hybrid or hybrid_graph (default: ${DEFAULT_MODE}, the best measured recall).`,
    ),
    k: z.number().int().min(1).max(MAX_K).default(DEFAULT_K).describe(`Results, 1-${MAX_K}.`),
    lens: lensField,
    include_superseded: z
      .boolean()
      .default(false)
      .describe('Also return facts that a newer fact superseded (they carry valid_until).'),
    neighbours: z
      .number()
      .int()
      .min(0)
      .max(MAX_NEIGHBOURS)
      .default(0)
      .describe(
        `Also return up to this many turns before and after each result in its conversation session (0-${MAX_NEIGHBOURS}).`,
      ),
    as_of: z.iso
      .datetime({ offset: true })
      .optional()
      .describe(
        'ISO 8601 date-time the question is asked from (default: now): "last week" and "yesterday" in the query are resolved against it.',
      ),
  }),
  output: toolOutput({
    mode: z.enum(SEARCH_MODES),
    results: z.array(hit),
    // Set when the query ran as bm25 because items still carry another embedding model's vectors.
    note: z.string().optional(),
  }),
  annotations: READ_ONLY,
  async run(args, ctx) {
    return query(ctx.deps, ctx.auth, {
      contextId: await ctx.enter(args.context_id),
      query: args.query,
      mode: args.mode,
      k: args.k,
      lens: args.lens,
      includeSuperseded: args.include_superseded,
      neighbours: args.neighbours,
      asOf: args.as_of,
    });
  },
});
