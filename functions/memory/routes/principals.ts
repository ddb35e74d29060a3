import { createRoute, z } from '@hono/zod-openapi';
import { principalOf } from '../auth/guards.ts';
import { PRINCIPAL_KINDS } from '../auth/principal.ts';
import { listPrincipals } from '../operations/list-principals.ts';
import { createPrincipal, deletePrincipal, getPrincipal } from '../operations/principals.ts';
import type { RouteModule } from './registry.ts';
import { commonErrors, conflict, jsonBody, jsonResponse, notFound, PageQuery } from './schemas.ts';

const PrincipalSchema = z
  .object({
    id: z.string(),
    kind: z.enum(PRINCIPAL_KINDS),
    display_name: z.string(),
    external_id: z.string().nullable(),
    owner_context_id: z.string().nullable().openapi({
      description:
        'The Context whose bound management key created the principal; null when a root management key did',
    }),
    created_at: z.string(),
  })
  .openapi('Principal');

const create = createRoute({
  method: 'post',
  path: '/api/v1/principals',
  operationId: 'createPrincipal',
  tags: ['principals'],
  summary:
    'Create a principal in the caller’s tenant, or get the tenant’s one with this external_id (management key)',
  request: {
    body: jsonBody(
      z.object({
        kind: z.enum(PRINCIPAL_KINDS),
        display_name: z.string().trim().min(1).max(200),
        external_id: z.string().min(1).max(200).optional(),
      }),
    ),
  },
  responses: {
    201: jsonResponse(PrincipalSchema, 'Created'),
    200: jsonResponse(PrincipalSchema, 'The existing principal with this external_id'),
    ...commonErrors,
    ...conflict,
  },
});

const list = createRoute({
  method: 'get',
  path: '/api/v1/principals',
  operationId: 'listPrincipals',
  tags: ['principals'],
  summary:
    'Principals of the caller’s tenant, by id, cursor-paginated: all for a root key (management key)',
  request: { query: PageQuery.extend({ kind: z.enum(PRINCIPAL_KINDS).optional() }) },
  responses: {
    200: jsonResponse(
      z.object({ principals: z.array(PrincipalSchema), next_cursor: z.string().nullable() }),
      'A page of principals',
    ),
    ...commonErrors,
  },
});

const get = createRoute({
  method: 'get',
  path: '/api/v1/principals/{id}',
  operationId: 'getPrincipal',
  summary: "A principal of the caller's tenant (management key)",
  tags: ['principals'],
  request: { params: z.object({ id: z.string().min(1).max(128) }) },
  responses: { 200: jsonResponse(PrincipalSchema, 'The principal'), ...commonErrors, ...notFound },
});

const remove = createRoute({
  method: 'delete',
  path: '/api/v1/principals/{id}',
  operationId: 'deletePrincipal',
  tags: ['principals'],
  summary:
    'Delete a principal and its keys; its keys are refused from the next request on (management key)',
  request: { params: z.object({ id: z.string().min(1).max(128) }) },
  responses: { 204: { description: 'Deleted' }, ...commonErrors, ...notFound },
});

export const principalsRoutes: RouteModule = {
  name: 'principals',
  register(app) {
    app.openapi(create, async (c) => {
      const { created, principal } = await createPrincipal(
        c.get('deps'),
        principalOf(c),
        c.req.valid('json'),
      );
      return created ? c.json(principal, 201) : c.json(principal, 200);
    });
    app.openapi(list, async (c) => {
      const q = c.req.valid('query');
      const page = await listPrincipals(c.get('deps'), principalOf(c), {
        cursor: q.cursor ?? null,
        limit: q.limit,
        kind: q.kind ?? null,
      });
      return c.json(page, 200);
    });
    app.openapi(get, async (c) =>
      c.json(await getPrincipal(c.get('deps'), principalOf(c), c.req.valid('param').id), 200),
    );
    app.openapi(remove, async (c) => {
      await deletePrincipal(c.get('deps'), principalOf(c), c.req.valid('param').id);
      return c.body(null, 204);
    });
  },
};
