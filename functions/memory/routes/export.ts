import { z } from '@hono/zod-openapi';
import { requireManagement } from '../auth/guards.ts';
import type { MemoryApp } from '../hono-env.ts';
import { exportBlob, importBlob } from '../operations/backup-blobs.ts';
import { exportContext, importContext } from '../operations/context-backup.ts';
import type { RouteModule } from './registry.ts';
import { commonErrors, conflict, jsonResponse, notFound } from './schemas.ts';

const NDJSON = 'application/x-ndjson';
const params = z.object({ id: z.string() });
const blobParams = params.extend({
  sha256: z.string().openapi({ description: 'A document row’s sha256 (64 hex digits)' }),
});

function documentExportRoutes(app: MemoryApp): void {
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/api/v1/contexts/{id}/export',
    operationId: 'exportContext',
    tags: ['contexts'],
    summary: 'The Context’s whole database as streamed NDJSON (management key)',
    description:
      'A header line (format, schema version, counts when the export began), one line per row, ' +
      'and an end line with the rows written per table and the sha256 over the row lines. ' +
      'Documents’ files are referenced by sha256: fetch each from `.../export/blobs/{sha256}`.',
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
    summary: 'Replay an export into a new, empty Context, all or nothing (management key)',
    description:
      'Read line by line and written in bounded batches; counts and checksum are verified at the ' +
      'end line. Any failure (a cut body included) leaves the Context empty, as it was.',
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
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/api/v1/contexts/{id}/export/blobs/{sha256}',
    operationId: 'exportContextBlob',
    tags: ['contexts'],
    summary: 'The file of the document with this sha256, for a complete backup (management key)',
    request: { params: blobParams },
    responses: {
      200: {
        description: 'The bytes',
        content: {
          'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) },
        },
      },
      ...commonErrors,
      ...notFound,
    },
  });
  app.openAPIRegistry.registerPath({
    method: 'put',
    path: '/api/v1/contexts/{id}/import/blobs/{sha256}',
    operationId: 'importContextBlob',
    tags: ['contexts'],
    summary:
      'Put a restored document’s file back, checked against its size and sha256 (management key)',
    request: {
      params: blobParams,
      body: {
        content: {
          'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) },
        },
      },
    },
    responses: {
      200: jsonResponse(
        z.object({ sha256: z.string(), size_bytes: z.number().int(), restored: z.boolean() }),
        'Stored (restored: true) or already there (restored: false)',
      ),
      ...commonErrors,
      ...notFound,
    },
  });
}

/**
 * Backup and restore (management key). Plain routes: both bodies are streams that a validator
 * must not buffer. `GET .../export` streams the Context's database as NDJSON, `POST .../import`
 * replays one into a Context that was just created; the blob routes carry documents' files.
 */
function registerExportRoutes(app: MemoryApp): void {
  documentExportRoutes(app);
  app.get('/api/v1/contexts/:id/export', async (c) => {
    const auth = requireManagement(c);
    const id = c.req.param('id');
    const stream = await exportContext(c.get('deps'), auth, id);
    return c.body(stream, 200, {
      'content-type': `${NDJSON}; charset=utf-8`,
      'content-disposition': `attachment; filename="${id}.ndjson"`,
    });
  });
  app.post('/api/v1/contexts/:id/import', async (c) => {
    const auth = requireManagement(c);
    const result = await importContext(c.get('deps'), auth, c.req.param('id'), c.req.raw.body);
    return c.json(result, 200);
  });
  app.get('/api/v1/contexts/:id/export/blobs/:sha256', async (c) => {
    const auth = requireManagement(c);
    const { body, blob } = await exportBlob(
      c.get('deps'),
      auth,
      c.req.param('id'),
      c.req.param('sha256'),
    );
    return c.body(body, 200, {
      'content-type': blob.content_type,
      'content-length': String(blob.size_bytes),
    });
  });
  app.put('/api/v1/contexts/:id/import/blobs/:sha256', async (c) => {
    const auth = requireManagement(c);
    const result = await importBlob(
      c.get('deps'),
      auth,
      c.req.param('id'),
      c.req.param('sha256'),
      c.req.raw,
    );
    return c.json(result, 200);
  });
}

/** A Context's export and import (management keys), control-plane routes. */
export const exportRoutes: RouteModule = { name: 'export', register: registerExportRoutes };
