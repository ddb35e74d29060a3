import { requireManagement } from '../auth/guards.ts';
import type { MemoryApp } from '../hono-env.ts';
import { exportContext, importContext } from '../operations/context-backup.ts';

/**
 * Backup and restore (management key): `GET /api/v1/contexts/{id}/export` streams the Context's
 * whole database as NDJSON; `POST /api/v1/contexts/{id}/import` replays such an export into a
 * Context that was just created (and is still empty).
 */
export function registerExportRoutes(app: MemoryApp): void {
  app.get('/api/v1/contexts/:id/export', async (c) => {
    const auth = requireManagement(c);
    const id = c.req.param('id');
    const ndjson = await exportContext(c.get('deps'), auth, id);
    return c.body(ndjson, 200, {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'content-disposition': `attachment; filename="${id}.ndjson"`,
    });
  });
  app.post('/api/v1/contexts/:id/import', async (c) => {
    const auth = requireManagement(c);
    const result = await importContext(c.get('deps'), auth, c.req.param('id'), await c.req.text());
    return c.json(result, 200);
  });
}
