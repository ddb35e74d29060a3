import { createRoute, z } from '@hono/zod-openapi';
import { MAX_CONTEXT_TOKENS } from '../operations/context-block.ts';
import { perform } from './in-context.ts';
import type { RouteModule } from './registry.ts';
import {
  commonErrors,
  ContextBlockItems,
  ContextIdParam,
  jsonResponse,
  notFound,
} from './schemas.ts';

const route = createRoute({
  method: 'get',
  path: '/api/v1/{context_id}/sessions/{session_id}/context',
  operationId: 'getSessionContext',
  tags: ['sessions'],
  summary: "The session's prompt-ready context: recent turns and the memory relevant to them",
  request: {
    params: ContextIdParam.extend({
      session_id: z
        .string()
        .min(1)
        .max(128)
        .openapi({ param: { name: 'session_id', in: 'path' } }),
    }),
    query: z.object({
      max_tokens: z.coerce.number().int().min(1).max(MAX_CONTEXT_TOKENS).optional(),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({
        session_id: z.string(),
        context: z.string(),
        items: ContextBlockItems,
        tokens: z.number().int(),
        max_tokens: z.number().int(),
        cached: z.boolean(),
      }),
      'The context block, cached until the next write to the Context',
    ),
    ...commonErrors,
    ...notFound,
  },
});

export const sessionContextRoutes: RouteModule = {
  name: 'session-context',
  register(app) {
    app.openapi(route, async (c) => {
      const params = c.req.valid('param');
      return c.json(
        await perform(c, 'sessionContext', {
          contextId: params.context_id,
          sessionId: params.session_id,
          max_tokens: c.req.valid('query').max_tokens,
        }),
        200,
      );
    });
  },
};
