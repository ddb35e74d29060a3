import { createRoute, z } from '@hono/zod-openapi';
import { perform } from './in-context.ts';
import type { RouteModule } from './registry.ts';
import {
  asJsonObject,
  commonErrors,
  conflict,
  ContextIdParam,
  FactIdParam,
  FactInput,
  jsonBody,
  jsonResponse,
  MemoryItem,
  notFound,
  unprocessable,
} from './schemas.ts';

const history = createRoute({
  method: 'get',
  path: '/api/v1/{context_id}/facts/{id}/history',
  operationId: 'getFactHistory',
  tags: ['facts'],
  summary: 'Every version of a fact (supersedes and refines links), oldest first',
  request: { params: FactIdParam },
  responses: {
    200: jsonResponse(
      z
        .object({
          id: z.string().openapi({ description: 'The version asked for' }),
          versions: z.array(MemoryItem).openapi({
            description:
              'Oldest first, the one asked for included; versions outside the read grant are left out',
          }),
        })
        .openapi('FactHistory'),
      'The version chain',
    ),
    ...commonErrors,
    ...notFound,
  },
});

const update = createRoute({
  method: 'patch',
  path: '/api/v1/{context_id}/facts/{id}',
  operationId: 'updateFact',
  tags: ['facts'],
  summary:
    'Edit a fact: a new version supersedes the current one, which is kept as history (valid_until set)',
  request: {
    params: FactIdParam,
    body: jsonBody(
      FactInput.pick({ content: true, scopes: true, metadata: true }).extend({
        scopes: FactInput.shape.scopes.openapi({
          description:
            'The new version’s scopes (inside the write grant); the old ones when absent',
        }),
        metadata: FactInput.shape.metadata.openapi({
          description: 'The new version’s metadata; the old metadata when absent',
        }),
      }),
    ),
  },
  responses: {
    200: jsonResponse(
      z
        .object({
          fact: MemoryItem,
          replaces: z.string().openapi({ description: 'The id of the version it closed' }),
        })
        .openapi('FactUpdate'),
      'The new version',
    ),
    ...commonErrors,
    ...notFound,
    ...conflict,
    ...unprocessable,
  },
});

/**
 * A fact's versions: the same operations as the MCP tools `fact_history` and `update_fact`
 * (operations/fact-versions.ts), run in the Context's object like every data-plane route.
 */
export const factVersionsRoutes: RouteModule = {
  name: 'fact-versions',
  register(app) {
    app.openapi(history, async (c) => {
      const { context_id, id } = c.req.valid('param');
      return c.json(await perform(c, 'factHistory', { contextId: context_id, id }), 200);
    });
    app.openapi(update, async (c) => {
      const { context_id, id } = c.req.valid('param');
      const body = c.req.valid('json');
      const outcome = await perform(c, 'updateFact', {
        contextId: context_id,
        id,
        content: body.content,
        scopes: body.scopes,
        metadata: asJsonObject(body.metadata) ?? undefined,
      });
      return c.json(outcome, 200);
    });
  },
};
