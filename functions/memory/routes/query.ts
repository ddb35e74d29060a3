import { createRoute, z } from '@hono/zod-openapi';
import { DEFAULT_K, DEFAULT_MODE, MAX_K, MAX_NEIGHBOURS } from '../operations/query.ts';
import { ARMS } from '../retrieval/fusion.ts';
import { ITEM_KINDS } from '../store/types.ts';
import { perform } from './in-context.ts';
import type { RouteModule } from './registry.ts';
import {
  commonErrors,
  ContextIdParam,
  jsonBody,
  jsonResponse,
  Lens,
  notFound,
  SearchModeSchema,
} from './schemas.ts';

const Rank = z.number().int().nullable();
const Window = z.number().int().min(0).max(MAX_NEIGHBOURS).default(0);
const NeighbourTurn = z
  .object({
    id: z.string(),
    content: z.string(),
    position: z.number().int(),
    valid_from: z.string(),
  })
  .openapi('NeighbourTurn');

const ArmShare = z
  .object({
    rank: Rank.openapi({ description: '1-based rank in the arm’s list; null when not listed' }),
    score: z
      .number()
      .nullable()
      .openapi({ description: 'The arm’s own score (bm25, cosine, PageRank...)' }),
    weight: z
      .number()
      .openapi({ description: 'The arm’s weight over the sum of the arms that took part' }),
    contribution: z
      .number()
      .openapi({ description: 'weight x the score min-max normalised in the arm’s list' }),
  })
  .openapi('ArmShare');

const Explanation = z
  .object({
    arms: z.partialRecord(z.enum(ARMS), ArmShare).openapi({
      description:
        'The arms that took part: bm25, prf (feedback terms), synonym, vector, soft (word-by-word soft match), graph (personalised PageRank); one arm in bm25 and vector modes',
    }),
    fused: z.number().openapi({
      description:
        'The sum of the contributions; `score` differs by what came after fusion (content prior, answer type, neighbour and session scores, repeats damped)',
    }),
  })
  .openapi('Explanation');

const QueryResult = z
  .object({
    id: z.string(),
    kind: z.enum(ITEM_KINDS),
    content: z.string(),
    score: z.number(),
    scopes: z.array(z.string()),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    created_at: z.string(),
    valid_from: z.string().openapi({
      description: 'When it was said or happened (its created_at unless given at write time)',
    }),
    session: z.string().nullable().openapi({ description: 'Conversation label, when given' }),
    position: z.number().int().nullable().openapi({ description: 'Turn position, when given' }),
    valid_until: z.string().optional().openapi({
      description: 'Only on superseded facts, returned with include_superseded: true',
    }),
    ranks: z.object({ bm25: Rank, vector: Rank, graph: Rank.optional() }).optional().openapi({
      description:
        'hybrid and hybrid_graph: the 1-based rank of the item in each fused list (null when absent)',
    }),
    explain: Explanation.optional().openapi({
      description: 'Only when the request sets explain: each arm’s part in the score',
    }),
    neighbours: z.array(NeighbourTurn).optional().openapi({
      description:
        'Only when the request sets neighbours: the turns around this one in its session, by position ([] when it has no session)',
    }),
  })
  .openapi('QueryResult');

const route = createRoute({
  method: 'post',
  path: '/api/v1/{context_id}/query',
  operationId: 'queryMemory',
  tags: ['query'],
  summary:
    'Knowledge query: vector, bm25, hybrid (weighted score fusion) or hybrid_graph (+ personalised PageRank)',
  request: {
    params: ContextIdParam,
    body: jsonBody(
      z.object({
        query: z.string().trim().min(1).max(4096),
        mode: SearchModeSchema.default(DEFAULT_MODE),
        k: z.number().int().min(1).max(MAX_K).default(DEFAULT_K),
        lens: Lens.optional(),
        kinds: z.array(z.enum(ITEM_KINDS)).min(1).optional(),
        include_superseded: z.boolean().default(false).openapi({
          description: 'Also return facts closed by supersession (they carry valid_until)',
        }),
        as_of: z.iso
          .datetime({
            offset: true,
            error: 'as_of must be an ISO 8601 date-time, e.g. 2023-05-08T13:56:00Z',
          })
          .optional()
          .openapi({
            description:
              'The moment the question is asked from (default: now). Relative periods in the query ("last year", "yesterday", "two weeks ago") are resolved against it and matched to the dates facts were said or are about.',
          }),
        explain: z.boolean().optional().openapi({
          description:
            'true: each result also carries `explain`, what every arm contributed to its score (absent or false: the answer is unchanged)',
        }),
        neighbours: Window.openapi({
          description: `Also return up to this many turns before and after each hit in its session (0-${MAX_NEIGHBOURS}): a question and its answer sit in adjacent turns. Neighbours pass the same lens, kinds and supersession filter as the hits.`,
        }),
      }),
    ),
  },
  responses: {
    200: jsonResponse(
      z.object({
        mode: SearchModeSchema.openapi({
          description: 'The mode used: bm25 while items carry another embedding model vectors',
        }),
        results: z.array(QueryResult),
        note: z.string().optional().openapi({
          description: 'Why the mode differs from the one asked for, when it does',
        }),
      }),
      'Ranked results',
    ),
    ...commonErrors,
    ...notFound,
  },
});

export const queryRoutes: RouteModule = {
  name: 'query',
  register(app) {
    app.openapi(route, async (c) => {
      const body = c.req.valid('json');
      const result = await perform(c, 'query', {
        contextId: c.req.valid('param').context_id,
        query: body.query,
        mode: body.mode,
        k: body.k,
        lens: body.lens,
        kinds: body.kinds,
        includeSuperseded: body.include_superseded,
        neighbours: body.neighbours,
        asOf: body.as_of,
        explain: body.explain,
      });
      return c.json(result, 200);
    });
  },
};
