import { createRoute, z } from '@hono/zod-openapi';
import { ModelUsage, setModelHeaders } from './model-responses.ts';
import { perform } from './in-context.ts';
import type { RouteModule } from './registry.ts';
import { commonErrors, ContextIdParam, jsonBody, jsonResponse, Lens, notFound } from './schemas.ts';

const Insight = z.object({
  entity: z.string(),
  insight: z.string(),
  sources: z.array(z.string()),
  reflection_id: z
    .string()
    .nullable()
    .openapi({ description: 'the stored reflection item when persist was true' }),
});

const route = createRoute({
  method: 'post',
  path: '/api/v1/{context_id}/reflect',
  operationId: 'reflect',
  tags: ['model'],
  summary: 'Insights over a lens (model-backed); persist: true stores them (supervisor principal)',
  request: {
    params: ContextIdParam,
    body: jsonBody(z.object({ lens: Lens.optional(), persist: z.boolean().optional() })),
  },
  responses: {
    200: jsonResponse(
      z
        .object({
          insights: z.array(Insight),
          persisted: z.boolean(),
          facts_considered: z.number().int(),
          provider: z.string(),
          model: z.string(),
          extractive: z.boolean(),
          usage: ModelUsage,
          cached: z.boolean(),
        })
        .openapi('Reflection'),
      'Insights, each linked to the facts it rests on',
    ),
    ...commonErrors,
    ...notFound,
  },
});

export const reflectRoutes: RouteModule = {
  name: 'reflect',
  register(app) {
    app.openapi(route, async (c) => {
      const body = c.req.valid('json');
      const { response, budget } = await perform(c, 'reflect', {
        contextId: c.req.valid('param').context_id,
        lens: body.lens,
        persist: body.persist,
      });
      setModelHeaders(c, budget, response);
      return c.json(response, 200);
    });
  },
};
