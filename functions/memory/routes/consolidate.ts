import { createRoute, z } from '@hono/zod-openapi';
import { ModelUsage, setModelHeaders } from './model-responses.ts';
import { perform } from './in-context.ts';
import type { RouteModule } from './registry.ts';
import { commonErrors, ContextIdParam, jsonBody, jsonResponse, Lens, notFound } from './schemas.ts';

const Decision = z.object({
  action: z.enum(['merge', 'supersede', 'keep']),
  id: z.string(),
  into: z.string().optional(),
  by: z.string().optional(),
  reason: z.string(),
});

const route = createRoute({
  method: 'post',
  path: '/api/v1/{context_id}/consolidate',
  operationId: 'consolidate',
  tags: ['model'],
  summary: 'Merge duplicates and supersede older values over the facts the key may write',
  request: {
    params: ContextIdParam,
    body: jsonBody(
      z.object({
        lens: Lens.optional(),
        dry_run: z.boolean().optional(),
        cursor: z.string().min(1).max(64).optional().openapi({
          description:
            'A `next_cursor` from an earlier call: goes on with the next window of a Context of more than 1,000 current facts',
        }),
      }),
    ),
  },
  responses: {
    200: jsonResponse(
      z
        .object({
          decisions: z.array(Decision),
          dry_run: z.boolean(),
          applied: z.number().int(),
          next_cursor: z.string().nullable().openapi({
            description:
              'Set when facts past this window remain (a Context of more than 1,000 current facts is planned a window at a time, each with the facts most like it anywhere in the Context); null once the walk has reached the end',
          }),
          summary: z.object({
            merge: z.number().int(),
            supersede: z.number().int(),
            keep: z.number().int(),
          }),
          provider: z.string(),
          model: z.string(),
          extractive: z.boolean(),
          usage: ModelUsage,
        })
        .openapi('Consolidation'),
      'Decisions, applied unless dry_run',
    ),
    ...commonErrors,
    ...notFound,
  },
});

export const consolidateRoutes: RouteModule = {
  name: 'consolidate',
  register(app) {
    app.openapi(route, async (c) => {
      const body = c.req.valid('json');
      const { response, budget } = await perform(c, 'consolidate', {
        contextId: c.req.valid('param').context_id,
        lens: body.lens,
        dry_run: body.dry_run,
        cursor: body.cursor,
      });
      setModelHeaders(c, budget, response);
      return c.json(response, 200);
    });
  },
};
