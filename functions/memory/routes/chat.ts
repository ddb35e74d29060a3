import { createRoute, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import type { ChatResponse } from '../operations/chat.ts';
import { ModelUsage, setModelHeaders } from './model-responses.ts';
import { perform } from './in-context.ts';
import type { RouteModule } from './registry.ts';
import { commonErrors, ContextIdParam, jsonBody, jsonResponse, Lens, notFound } from './schemas.ts';

const Citation = z.object({
  ref: z.number().int(),
  id: z.string(),
  kind: z.enum(['fact', 'chunk', 'reflection']),
  quote: z.string(),
});

const ChatResult = z
  .object({
    answer: z.string(),
    citations: z.array(Citation),
    known: z.boolean().openapi({ description: 'false when memory held nothing that answers' }),
    provider: z.string(),
    model: z.string(),
    extractive: z
      .boolean()
      .openapi({ description: 'true when the answer only quotes stored memory (local provider)' }),
    retrieval: z.object({
      mode: z.string(),
      note: z.string().nullable(),
      memories: z.number().int(),
    }),
    usage: ModelUsage,
    cached: z.boolean(),
  })
  .openapi('ChatAnswer');

const route = createRoute({
  method: 'post',
  path: '/api/v1/{context_id}/chat',
  operationId: 'chat',
  tags: ['model'],
  summary:
    'Answer from memory with citations (model-backed); Server-Sent Events with Accept: text/event-stream',
  request: {
    params: ContextIdParam,
    body: jsonBody(
      z.object({
        message: z.string().trim().min(1).max(8192),
        session_id: z.string().min(1).max(128).optional(),
        lens: Lens.optional(),
        stream: z.boolean().optional(),
      }),
    ),
  },
  responses: {
    200: {
      description: 'The answer (JSON), or its events (text/event-stream: meta, delta..., done)',
      content: {
        'application/json': { schema: ChatResult },
        'text/event-stream': { schema: z.string() },
      },
    },
    ...commonErrors,
    ...notFound,
  },
});

/** The answer text in a few pieces, so a streaming client sees it arrive. */
function pieces(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [text];
}

export const chatRoutes: RouteModule = {
  name: 'chat',
  register(app) {
    app.openapi(route, async (c) => {
      const body = c.req.valid('json');
      const { response, budget } = await perform(c, 'chat', {
        contextId: c.req.valid('param').context_id,
        message: body.message,
        session_id: body.session_id,
        lens: body.lens,
      });
      setModelHeaders(c, budget, response);
      const wantsStream =
        body.stream === true || (c.req.header('accept') ?? '').includes('text/event-stream');
      if (!wantsStream) {
        return c.json(response, 200);
      }
      return streamSSE(c, async (stream) => {
        const meta: Omit<ChatResponse, 'answer' | 'citations'> = { ...response };
        await stream.writeSSE({ event: 'meta', data: JSON.stringify(meta) });
        for (const text of pieces(response.answer)) {
          await stream.writeSSE({ event: 'delta', data: JSON.stringify({ text }) });
        }
        await stream.writeSSE({ event: 'citations', data: JSON.stringify(response.citations) });
        await stream.writeSSE({ event: 'done', data: JSON.stringify(response) });
      });
    });
  },
};
