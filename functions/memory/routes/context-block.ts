import { createRoute, z } from '@hono/zod-openapi';
import { MAX_CONTEXT_TOKENS } from '../operations/context-block.ts';
import { perform } from './in-context.ts';
import type { RouteModule } from './registry.ts';
import {
  commonErrors,
  ContextBlockItems,
  ContextIdParam,
  jsonBody,
  jsonResponse,
  notFound,
} from './schemas.ts';

const route = createRoute({
  method: 'post',
  path: '/api/v1/{context_id}/context',
  operationId: 'buildContext',
  tags: ['context'],
  summary: 'A prompt-ready block of relevant facts and recent turns under max_tokens (o200k_base)',
  request: {
    params: ContextIdParam,
    body: jsonBody(
      z.object({
        query: z.string().max(4096).optional(),
        session_id: z.string().min(1).max(128).optional(),
        max_tokens: z.number().int().min(1).max(MAX_CONTEXT_TOKENS).optional(),
      }),
    ),
  },
  responses: {
    200: jsonResponse(
      z.object({
        context: z.string(),
        items: ContextBlockItems,
        tokens: z.number().int(),
        max_tokens: z.number().int(),
        cached: z.boolean().openapi({
          description: 'true when served from the cache (emptied by any write to the Context)',
        }),
      }),
      'The block and what went into it, cached until the next write to the Context',
    ),
    ...commonErrors,
    ...notFound,
  },
});

export const contextBlockRoutes: RouteModule = {
  name: 'context-block',
  register(app) {
    app.openapi(route, async (c) =>
      c.json(
        await perform(c, 'cachedContextBlock', {
          contextId: c.req.valid('param').context_id,
          ...c.req.valid('json'),
        }),
        200,
      ),
    );
  },
};
