import { createRoute, z } from '@hono/zod-openapi';
import { MAX_TURNS_PAGE, TURN_ROLES } from '../operations/sessions.ts';
import { perform } from './in-context.ts';
import type { RouteModule } from './registry.ts';
import {
  asJsonObject,
  commonErrors,
  conflict,
  ContextIdParam,
  FactInput,
  jsonBody,
  jsonResponse,
  MAX_CONTENT_CHARS,
  MAX_SCOPES,
  Metadata,
  notFound,
  ScopePath,
} from './schemas.ts';

const SessionSchema = z
  .object({
    id: z.string(),
    scopes: z.array(z.string()).openapi({
      description:
        'Scope paths, as on facts: reading the session and its turns needs a read grant matching them, adding turns a write grant covering them; [] is unscoped (root grant only)',
      example: ['team:eng'],
    }),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    turn_count: z.number().int(),
  })
  .openapi('Session');

const TurnSchema = z
  .object({
    id: z.string(),
    session_id: z.string(),
    role: z.string(),
    content: z.string(),
    created_at: z.string(),
    valid_from: z.string().openapi({
      description: 'When the turn was said: as given on append, else when it was stored',
    }),
  })
  .openapi('Turn');

const TurnExtraction = z
  .object({
    status: z.enum(['queued', 'not_run', 'done', 'failed', 'skipped']).openapi({
      description:
        'queued: background extraction will run; not_run: it cannot (e.g. enforcement_blocked, queue unavailable) and detail says why; skipped: not a user turn',
    }),
    detail: z.string().nullable(),
  })
  .openapi('TurnExtraction');

const AppendedTurn = TurnSchema.extend({ extraction: TurnExtraction }).openapi('AppendedTurn');

const SessionParam = ContextIdParam.extend({ session_id: z.string().min(1).max(128) });
const Page = (max: number, def: number) =>
  z.object({
    limit: z.coerce.number().int().min(1).max(max).default(def),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  });

const create = createRoute({
  method: 'post',
  path: '/api/v1/{context_id}/sessions',
  operationId: 'createSession',
  summary: 'Start a conversation session whose turns feed fact extraction',
  tags: ['sessions'],
  request: {
    params: ContextIdParam,
    body: jsonBody(
      z.object({
        id: z
          .string()
          .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/, 'id: letters, digits, "_", "-", "."')
          .optional(),
        scopes: z.array(ScopePath).max(MAX_SCOPES).optional().openapi({
          description:
            "Scope paths inside the key's write grant (and not below its scope floor). Omitted: unscoped, as for a fact without scopes, which needs the root (*) write grant. Facts extracted from the session's turns get these scopes.",
        }),
        metadata: Metadata.optional(),
      }),
    ),
  },
  responses: {
    201: jsonResponse(SessionSchema, 'Created'),
    ...commonErrors,
    ...notFound,
    ...conflict,
  },
});

const list = createRoute({
  method: 'get',
  path: '/api/v1/{context_id}/sessions',
  operationId: 'listSessions',
  summary: 'The sessions the key can read, oldest first, offset-paginated',
  tags: ['sessions'],
  request: { params: ContextIdParam, query: Page(100, 50) },
  responses: {
    200: jsonResponse(
      z.object({ sessions: z.array(SessionSchema), total: z.number().int() }),
      'A page of sessions',
    ),
    ...commonErrors,
    ...notFound,
  },
});

const get = createRoute({
  method: 'get',
  path: '/api/v1/{context_id}/sessions/{session_id}',
  operationId: 'getSession',
  summary: 'One session with its scopes, metadata and turn count',
  tags: ['sessions'],
  request: { params: SessionParam },
  responses: { 200: jsonResponse(SessionSchema, 'The session'), ...commonErrors, ...notFound },
});

const remove = createRoute({
  method: 'delete',
  path: '/api/v1/{context_id}/sessions/{session_id}',
  operationId: 'deleteSession',
  summary: 'Delete a session and its turns; facts already extracted from it stay',
  tags: ['sessions'],
  request: { params: SessionParam },
  responses: { 204: { description: 'Deleted with its turns' }, ...commonErrors, ...notFound },
});

const append = createRoute({
  method: 'post',
  path: '/api/v1/{context_id}/sessions/{session_id}/turns',
  operationId: 'appendTurn',
  summary: 'Add a turn to a session; facts are extracted from it in the background',
  tags: ['sessions'],
  request: {
    params: SessionParam,
    body: jsonBody(
      z.object({
        role: z.enum(TURN_ROLES),
        content: z.string().min(1).max(MAX_CONTENT_CHARS),
        valid_from: FactInput.shape.valid_from.openapi({
          description:
            'When the turn was said (default: now). Facts extracted from it take this time, and relative dates in it ("last Saturday") resolve against it.',
          example: '2023-05-08T13:56:00Z',
        }),
      }),
    ),
  },
  responses: {
    201: jsonResponse(AppendedTurn, 'Stored, with the state of its background fact extraction'),
    ...commonErrors,
    ...notFound,
  },
});

const turns = createRoute({
  method: 'get',
  path: '/api/v1/{context_id}/sessions/{session_id}/turns',
  operationId: 'listTurns',
  summary: "A session's turns, oldest first, offset-paginated",
  tags: ['sessions'],
  request: { params: SessionParam, query: Page(MAX_TURNS_PAGE, 100) },
  responses: {
    200: jsonResponse(
      z.object({
        turns: z.array(TurnSchema),
        total: z.number().int(),
        limit: z.number().int(),
        offset: z.number().int(),
      }),
      'Turns, oldest first',
    ),
    ...commonErrors,
    ...notFound,
  },
});

export const sessionsRoutes: RouteModule = {
  name: 'sessions',
  register(app) {
    app.openapi(create, async (c) => {
      const body = c.req.valid('json');
      return c.json(
        await perform(c, 'createSession', {
          contextId: c.req.valid('param').context_id,
          id: body.id,
          scopes: body.scopes,
          metadata: asJsonObject(body.metadata) ?? undefined,
        }),
        201,
      );
    });
    app.openapi(list, async (c) => {
      const q = c.req.valid('query');
      return c.json(
        await perform(c, 'listSessions', {
          contextId: c.req.valid('param').context_id,
          ...q,
        }),
        200,
      );
    });
    app.openapi(get, async (c) => {
      const p = c.req.valid('param');
      return c.json(
        await perform(c, 'getSession', {
          contextId: p.context_id,
          sessionId: p.session_id,
        }),
        200,
      );
    });
    app.openapi(remove, async (c) => {
      const p = c.req.valid('param');
      await perform(c, 'deleteSession', {
        contextId: p.context_id,
        sessionId: p.session_id,
      });
      return c.body(null, 204);
    });
    app.openapi(append, async (c) => {
      const p = c.req.valid('param');
      const body = c.req.valid('json');
      return c.json(
        await perform(c, 'appendTurn', {
          contextId: p.context_id,
          sessionId: p.session_id,
          role: body.role,
          content: body.content,
          // Stored normalised to UTC, like a fact's, so ordering and date tokens agree.
          ...(body.valid_from === undefined
            ? {}
            : { validFrom: new Date(body.valid_from).toISOString() }),
        }),
        201,
      );
    });
    app.openapi(turns, async (c) => {
      const p = c.req.valid('param');
      const q = c.req.valid('query');
      return c.json(
        await perform(c, 'listTurns', {
          contextId: p.context_id,
          sessionId: p.session_id,
          ...q,
        }),
        200,
      );
    });
  },
};
