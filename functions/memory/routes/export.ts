import { z } from '@hono/zod-openapi';
import { requireManagement } from '../auth/guards.ts';
import type { MemoryApp } from '../hono-env.ts';
import { exportContext, importContext } from '../operations/context-backup.ts';
import { commonErrors, conflict, jsonResponse, notFound } from './schemas.ts';

const NDJSON = 'application/x-ndjson';

function documentExportRoutes(app: MemoryApp): void {
  const params = z.object({ id: z.string() });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/api/v1/contexts/{id}/export',
    operationId: 'exportContext',
    tags: ['contexts'],
    summary: 'The Context’s whole database as NDJSON (management key)',
    request: { params },
    responses: {
      200: {
        description: 'Header line, one line per row, end line',
        content: { [NDJSON]: { schema: z.string() } },
      },
      ...commonErrors,
      ...notFound,
    },
  });
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/api/v1/contexts/{id}/import',
    operationId: 'importContext',
    tags: ['contexts'],
    summary: 'Replay an export into a new, empty Context (management key)',
    request: { params, body: { content: { [NDJSON]: { schema: z.string() } } } },
    responses: {
      200: jsonResponse(
        z.object({
          context_id: z.string(),
          schema_version: z.number().int(),
          rows: z.number().int(),
        }),
        'Restored',
      ),
      ...commonErrors,
      ...notFound,
      ...conflict,
    },
  });
}

/**
 * Backup and restore (management key): `GET /api/v1/contexts/{id}/export` streams the Context's
 * whole database as NDJSON; `POST /api/v1/contexts/{id}/import` replays such an export into a
 * Context that was just created (and is still empty).
 */
export function registerExportRoutes(app: MemoryApp): void {
  documentExportRoutes(app);
  app.get('/api/v1/contexts/:id/export', async (c) => {
    const auth = requireManagement(c);
    const id = c.req.param('id');
    const ndjson = await exportContext(c.get('deps'), auth, id);
    return c.body(ndjson, 200, {
      'content-type': `${NDJSON}; charset=utf-8`,
      'content-disposition': `attachment; filename="${id}.ndjson"`,
    });
  });
  app.post('/api/v1/contexts/:id/import', async (c) => {
    const auth = requireManagement(c);
    const result = await importContext(c.get('deps'), auth, c.req.param('id'), await c.req.text());
    return c.json(result, 200);
  });
}
