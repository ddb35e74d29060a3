import { createRoute, z } from '@hono/zod-openapi';
import { principalOf } from '../auth/guards.ts';
import { PRINCIPAL_KINDS } from '../auth/principal.ts';
import { whoAmI } from '../operations/whoami.ts';
import type { RouteModule } from './registry.ts';
import { commonErrors, jsonResponse } from './schemas.ts';

const Paths = z.array(z.string());

const WhoAmISchema = z
  .object({
    key_id: z.string().openapi({ description: '`bootstrap` for MEMORY_BOOTSTRAP_KEY' }),
    principal: z.object({
      id: z.string(),
      kind: z.enum(PRINCIPAL_KINDS),
      display_name: z.string(),
    }),
    context_id: z.string().nullable().openapi({
      description: 'The one Context this key may touch; null: every Context (root management key)',
    }),
    root: z
      .boolean()
      .openapi({ description: 'An unbound management key: lists and creates Contexts' }),
    grants: z.object({ 'memory:read': Paths, 'memory:write': Paths, 'memory:forget': Paths }),
    scope_floor: z.string().nullable(),
    read_lens: z.array(Paths).openapi({
      description: 'The lens a read without one uses: the read grant in disjunctive normal form',
    }),
  })
  .openapi('WhoAmI');

const route = createRoute({
  method: 'get',
  path: '/api/v1/whoami',
  operationId: 'whoAmI',
  tags: ['keys'],
  summary: 'The calling key: its principal, Context, grants, scope floor and read lens (any key)',
  responses: { 200: jsonResponse(WhoAmISchema, 'The calling key'), ...commonErrors },
});

export const whoamiRoutes: RouteModule = {
  name: 'whoami',
  register(app) {
    app.openapi(route, (c) => c.json(whoAmI(principalOf(c)), 200));
  },
};
