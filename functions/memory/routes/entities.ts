import { createRoute, z } from '@hono/zod-openapi';
import { MAX_ENTITY_ITEMS } from '../operations/entities.ts';
import { perform } from './in-context.ts';
import type { RouteModule } from './registry.ts';
import { commonErrors, ContextIdParam, jsonResponse, MemoryItem, notFound } from './schemas.ts';

const Entity = z
  .object({
    name: z.string().openapi({ description: 'Lower-cased: the id of the entity' }),
    display: z.string().openapi({ description: 'As first written' }),
    items: z.number().int().openapi({
      description:
        'Current items inside the read grant that mention it, counted up to 1,000 (see items_more)',
    }),
    items_more: z.boolean().openapi({
      description:
        'True when more current items may mention it than items counts: the count stopped at 1,000 or at the work one request may do',
    }),
  })
  .openapi('Entity');

const list = createRoute({
  method: 'get',
  path: '/api/v1/{context_id}/entities',
  operationId: 'listEntities',
  tags: ['entities'],
  summary:
    'Entities mentioned by current items the key may read, in first-seen order, cursor-paginated',
  request: {
    params: ContextIdParam,
    query: z.object({
      prefix: z
        .string()
        .min(1)
        .max(200)
        .optional()
        .openapi({ description: 'Only names starting with this (case-insensitive)' }),
      cursor: z.string().min(1).max(200).optional(),
      limit: z.coerce.number().int().min(1).max(100).default(50),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({ entities: z.array(Entity), next_cursor: z.string().nullable() }),
      'A page of entities',
    ),
    ...commonErrors,
    ...notFound,
  },
});

const get = createRoute({
  method: 'get',
  path: '/api/v1/{context_id}/entities/{name}',
  operationId: 'getEntity',
  tags: ['entities'],
  summary: 'One entity with the current items the key may read that mention it, oldest first',
  request: {
    params: ContextIdParam.extend({
      name: z
        .string()
        .min(1)
        .max(200)
        .openapi({ param: { name: 'name', in: 'path' }, example: 'alice' }),
    }),
    query: z.object({
      limit: z.coerce.number().int().min(1).max(MAX_ENTITY_ITEMS).default(MAX_ENTITY_ITEMS),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({ entity: Entity, items: z.array(MemoryItem) }).openapi('EntityDetail'),
      'The entity and its items',
    ),
    ...commonErrors,
    ...notFound,
  },
});

/** The entity graph's nodes, as the MCP tool `list_entities` reads them (operations/entities.ts). */
export const entitiesRoutes: RouteModule = {
  name: 'entities',
  register(app) {
    app.openapi(list, async (c) => {
      const q = c.req.valid('query');
      const page = await perform(c, 'listEntities', {
        contextId: c.req.valid('param').context_id,
        prefix: q.prefix ?? null,
        limit: q.limit,
        cursor: q.cursor ?? null,
      });
      return c.json(page, 200);
    });
    app.openapi(get, async (c) => {
      const { context_id, name } = c.req.valid('param');
      const detail = await perform(c, 'getEntity', {
        contextId: context_id,
        name,
        limit: c.req.valid('query').limit,
      });
      return c.json(detail, 200);
    });
  },
};
