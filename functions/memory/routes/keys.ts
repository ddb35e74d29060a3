import { createRoute, z } from '@hono/zod-openapi';
import { principalOf } from '../auth/guards.ts';
import { PRINCIPAL_KINDS } from '../auth/principal.ts';
import { createKey, revokeKey, updateKey } from '../operations/keys.ts';
import { listKeys } from '../operations/list-keys.ts';
import type { RouteModule } from './registry.ts';
import {
  commonErrors,
  conflict,
  jsonBody,
  jsonResponse,
  notFound,
  PageQuery,
  ScopePath,
} from './schemas.ts';

const GrantPaths = z.array(ScopePath).max(64);
const GrantsSchema = z.object({
  'memory:read': GrantPaths.optional(),
  'memory:write': GrantPaths.optional(),
  'memory:forget': GrantPaths.optional(),
});

const KeySchema = z
  .object({
    id: z.string(),
    principal_id: z.string(),
    context_id: z.string().nullable().openapi({
      description: 'The Context the key is bound to; null for an unbound (root) management key',
    }),
    kind: z.enum(PRINCIPAL_KINDS),
    prefix: z.string(),
    grants: z.object({
      'memory:read': z.array(z.string()),
      'memory:write': z.array(z.string()),
      'memory:forget': z.array(z.string()),
    }),
    scope_floor: z.string().nullable(),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
  })
  .openapi('ApiKey');

const create = createRoute({
  method: 'post',
  path: '/api/v1/keys',
  operationId: 'createKey',
  tags: ['keys'],
  summary:
    'Issue an API key for a principal and a Context; the secret is shown once (management key)',
  request: {
    body: jsonBody(
      z.object({
        principal_id: z.string().min(1).max(128),
        context_id: z.string().min(1).max(128).nullable().openapi({
          description:
            'The Context to bind the key to; null issues an unbound (root) management key (root management key, management principal only)',
        }),
        grants: GrantsSchema,
        scope_floor: ScopePath.nullable().optional(),
      }),
    ),
  },
  responses: {
    201: jsonResponse(
      KeySchema.extend({
        key: z.string().openapi({ description: 'The secret; shown only here.' }),
      }),
      'Issued',
    ),
    ...commonErrors,
    ...notFound,
  },
});

const list = createRoute({
  method: 'get',
  path: '/api/v1/keys',
  operationId: 'listKeys',
  tags: ['keys'],
  summary:
    'Keys this management key manages, by id, without secrets: all for a root key, its Context’s for a bound one',
  request: {
    query: PageQuery.extend({
      context_id: z
        .string()
        .min(1)
        .max(128)
        .optional()
        .openapi({ description: 'Only keys bound to this Context' }),
      principal_id: z
        .string()
        .min(1)
        .max(128)
        .optional()
        .openapi({ description: 'Only keys of this principal' }),
      include_revoked: z
        .enum(['true', 'false'])
        .optional()
        .openapi({ description: 'true: also list revoked keys' }),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({ keys: z.array(KeySchema), next_cursor: z.string().nullable() }),
      'A page of keys',
    ),
    ...commonErrors,
  },
});

const revoke = createRoute({
  method: 'delete',
  path: '/api/v1/keys/{id}',
  operationId: 'revokeKey',
  tags: ['keys'],
  summary: 'Revoke a key (management key)',
  request: { params: z.object({ id: z.string().min(1).max(128) }) },
  responses: { 204: { description: 'Revoked' }, ...commonErrors, ...notFound },
});

const update = createRoute({
  method: 'patch',
  path: '/api/v1/keys/{id}',
  operationId: 'updateKey',
  tags: ['keys'],
  summary:
    'Change a key’s grants or scope floor; effective on its next request everywhere (management key)',
  request: {
    params: z.object({ id: z.string().min(1).max(128) }),
    body: jsonBody(
      z.object({
        grants: GrantsSchema.optional().openapi({
          description: 'Replaces the grants; a verb left out grants nothing',
        }),
        scope_floor: ScopePath.nullable().optional().openapi({
          description: 'A new scope floor, or null for none',
        }),
      }),
    ),
  },
  responses: {
    200: jsonResponse(KeySchema, 'The key as it now stands'),
    ...commonErrors,
    ...notFound,
    ...conflict,
  },
});

export const keysRoutes: RouteModule = {
  name: 'keys',
  register(app) {
    app.openapi(create, async (c) =>
      c.json(await createKey(c.get('deps'), principalOf(c), c.req.valid('json')), 201),
    );
    app.openapi(list, async (c) => {
      const q = c.req.valid('query');
      const page = await listKeys(c.get('deps'), principalOf(c), {
        cursor: q.cursor ?? null,
        limit: q.limit,
        contextId: q.context_id ?? null,
        principalId: q.principal_id ?? null,
        includeRevoked: q.include_revoked === 'true',
      });
      return c.json(page, 200);
    });
    app.openapi(update, async (c) =>
      c.json(
        await updateKey(
          c.get('deps'),
          principalOf(c),
          c.req.valid('param').id,
          c.req.valid('json'),
        ),
        200,
      ),
    );
    app.openapi(revoke, async (c) => {
      await revokeKey(c.get('deps'), principalOf(c), c.req.valid('param').id);
      return c.body(null, 204);
    });
  },
};
