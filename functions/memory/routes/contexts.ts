import { createRoute, z } from '@hono/zod-openapi';
import { principalOf } from '../auth/guards.ts';
import { MAX_CONTEXT_UPLOAD_BYTES } from '../documents/upload-limit.ts';
import { reservedContextIds } from '../middleware/data-plane.ts';
import { createContext, deleteContext, getContext, updateContext } from '../operations/contexts.ts';
import { listContexts } from '../operations/list-contexts.ts';
import { BackupSettingSchema } from './backup-setting.ts';
import type { RouteModule } from './registry.ts';
import {
  commonErrors,
  conflict,
  jsonBody,
  jsonResponse,
  notFound,
  PageQuery,
  unprocessable,
} from './schemas.ts';

// One field list for both schemas, so each is a flat object in the OpenAPI document (`.extend`
// of a named schema would make `Context` an allOf of `ContextSummary` and its own part).
const contextFields = {
  id: z.string(),
  schema_version: z.number().int(),
  enforcement_blocked: z.boolean(),
  token_limit: z.number().int().nullable(),
  namespace: z.string().nullable(),
  max_upload_bytes: z.number().int().openapi({
    description:
      'The effective per-file upload limit in bytes: the Context’s own, else the deployment default `MAX_UPLOAD_BYTES`',
    example: 52428800,
  }),
  backup: BackupSettingSchema.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
};

const ContextSummarySchema = z.object(contextFields).openapi('ContextSummary');

const ContextSchema = z
  .object({
    ...contextFields,
    usage: z.object({
      facts: z.number().int(),
      documents: z
        .number()
        .int()
        .openapi({ description: 'Uploaded documents, whatever their status' }),
      chunks: z.number().int(),
      reflections: z.number().int(),
      sessions: z.number().int(),
      turns: z.number().int(),
      llm_tokens: z.number().int(),
    }),
  })
  .openapi('Context');

const IdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(128)
    .openapi({ param: { name: 'id', in: 'path' } }),
});
const TokenLimit = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable();
const Namespace = z.string().min(1).max(64).nullable();
const MaxUploadBytes = z.number().int().min(1).max(MAX_CONTEXT_UPLOAD_BYTES).nullable().openapi({
  description:
    'Per-file upload limit in bytes (1 to 1 GiB), or null for the deployment default `MAX_UPLOAD_BYTES`',
  example: 10485760,
});

const create = createRoute({
  method: 'post',
  path: '/api/v1/contexts',
  operationId: 'createContext',
  tags: ['contexts'],
  summary: 'Create a Context (root management key)',
  request: {
    body: jsonBody(
      z.object({
        id: z.string().min(1).max(128),
        token_limit: TokenLimit.optional(),
        namespace: Namespace.optional(),
      }),
    ),
  },
  responses: {
    201: jsonResponse(ContextSchema, 'The new Context'),
    ...commonErrors,
    ...conflict,
    ...unprocessable,
  },
});

const list = createRoute({
  method: 'get',
  path: '/api/v1/contexts',
  operationId: 'listContexts',
  tags: ['contexts'],
  summary:
    'The Contexts this management key administers, by id, cursor-paginated: all for a root key, its own for a bound one',
  request: { query: PageQuery },
  responses: {
    200: jsonResponse(
      z.object({ contexts: z.array(ContextSummarySchema), next_cursor: z.string().nullable() }),
      'A page of Contexts (usage counts: GET /contexts/{id})',
    ),
    ...commonErrors,
  },
});

const get = createRoute({
  method: 'get',
  path: '/api/v1/contexts/{id}',
  operationId: 'getContext',
  summary:
    "A Context's settings: token limit, enforcement, namespace, upload limit, backup (management key)",
  tags: ['contexts'],
  request: { params: IdParam },
  responses: { 200: jsonResponse(ContextSchema, 'The Context'), ...commonErrors, ...notFound },
});

const update = createRoute({
  method: 'patch',
  path: '/api/v1/contexts/{id}',
  operationId: 'updateContext',
  tags: ['contexts'],
  summary:
    'Update token_limit, enforcement_blocked, namespace, max_upload_bytes or backup (management key)',
  request: {
    params: IdParam,
    body: jsonBody(
      z.object({
        token_limit: TokenLimit.optional(),
        enforcement_blocked: z.boolean().optional(),
        namespace: Namespace.optional(),
        max_upload_bytes: MaxUploadBytes.optional(),
        backup: BackupSettingSchema.nullable().optional(),
      }),
    ),
  },
  responses: {
    200: jsonResponse(ContextSchema, 'The updated Context'),
    ...commonErrors,
    ...notFound,
    ...unprocessable,
  },
});

const remove = createRoute({
  method: 'delete',
  path: '/api/v1/contexts/{id}',
  operationId: 'deleteContext',
  tags: ['contexts'],
  summary: 'Delete a Context and its whole database (management key)',
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted' }, ...commonErrors, ...notFound },
});

export const contextsRoutes: RouteModule = {
  name: 'contexts',
  register(app) {
    app.openapi(create, async (c) =>
      c.json(
        await createContext(
          c.get('deps'),
          principalOf(c),
          c.req.valid('json'),
          reservedContextIds(app.routes),
        ),
        201,
      ),
    );
    app.openapi(list, async (c) => {
      const q = c.req.valid('query');
      const page = await listContexts(c.get('deps'), principalOf(c), {
        cursor: q.cursor ?? null,
        limit: q.limit,
      });
      return c.json(page, 200);
    });
    app.openapi(get, async (c) =>
      c.json(await getContext(c.get('deps'), principalOf(c), c.req.valid('param').id), 200),
    );
    app.openapi(update, async (c) =>
      c.json(
        await updateContext(
          c.get('deps'),
          principalOf(c),
          c.req.valid('param').id,
          c.req.valid('json'),
        ),
        200,
      ),
    );
    app.openapi(remove, async (c) => {
      await deleteContext(c.get('deps'), principalOf(c), c.req.valid('param').id);
      return c.body(null, 204);
    });
  },
};
