import { principalOf } from '../auth/guards.ts';
import { failure } from '../errors.ts';
import type { MemoryApp } from '../hono-env.ts';
import { deleteDocument, getDocument, listDocuments } from '../operations/documents.ts';
import { uploadDocument } from '../operations/upload-document.ts';
import { registerExportRoutes } from './export.ts';
import { registerMigrationRoutes } from './migrations.ts';
import type { RouteModule } from './registry.ts';

const MAX_PAGE = 100;

function pageLimit(value: string | undefined): number {
  if (value === undefined) return 20;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE) {
    throw failure('validation-error', `limit: an integer from 1 to ${MAX_PAGE}`);
  }
  return n;
}

/**
 * Documents: upload (multipart `file`, or a raw body with its content type), poll, list, delete.
 * Plain routes rather than OpenAPI ones: the upload body is a stream that must not be parsed
 * (and so buffered) by a validator before the size limit is applied.
 */
function registerDocumentRoutes(app: MemoryApp): void {
  app.post('/api/v1/:context_id/documents', async (c) => {
    const result = await uploadDocument(c.get('deps'), principalOf(c), {
      contextId: c.req.param('context_id'),
      request: c.req.raw,
    });
    return c.json(
      { ...result.document, deduplicated: result.deduplicated },
      result.deduplicated ? 200 : 202,
    );
  });
  app.get('/api/v1/:context_id/documents', async (c) => {
    const page = await listDocuments(c.get('deps'), principalOf(c), {
      contextId: c.req.param('context_id'),
      limit: pageLimit(c.req.query('limit')),
      cursor: c.req.query('cursor') ?? null,
    });
    return c.json(page, 200);
  });
  app.get('/api/v1/:context_id/documents/:id', async (c) => {
    const doc = await getDocument(c.get('deps'), principalOf(c), {
      contextId: c.req.param('context_id'),
      id: c.req.param('id'),
    });
    return c.json(doc, 200);
  });
  app.delete('/api/v1/:context_id/documents/:id', async (c) => {
    await deleteDocument(c.get('deps'), principalOf(c), {
      contextId: c.req.param('context_id'),
      id: c.req.param('id'),
    });
    return c.body(null, 204);
  });
}

/** Issue 4's route groups: documents, `/migrations` (with DLQ retry), Context export/import. */
export const documentsRoutes: RouteModule = {
  name: 'documents, migrations, export',
  register(app) {
    registerMigrationRoutes(app);
    registerExportRoutes(app);
    registerDocumentRoutes(app);
  },
};
