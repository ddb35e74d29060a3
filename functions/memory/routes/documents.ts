import { z } from '@hono/zod-openapi';
import { failure } from '../errors.ts';
import type { MemoryApp } from '../hono-env.ts';
import { perform } from './in-context.ts';
import type { RouteModule } from './registry.ts';
import { commonErrors, ContextIdParam, jsonResponse, notFound, Problem } from './schemas.ts';

/** A document as every documents endpoint returns it. */
export const DocumentSchema = z
  .object({
    id: z.string().openapi({ example: 'document:doc_0f3c9a…' }),
    filename: z.string().nullable(),
    content_type: z.string().openapi({ example: 'application/pdf' }),
    size_bytes: z.number().int(),
    sha256: z.string().openapi({ description: 'SHA-256 of the bytes; the same bytes deduplicate' }),
    status: z.enum(['queued', 'extracting', 'chunking', 'embedding', 'ready', 'failed']),
    error: z.string().nullable().openapi({
      description:
        'Set when processing failed, e.g. "PDF extraction failed: file is encrypted and no password was provided."',
    }),
    scopes: z.array(z.string()),
    pages: z.number().int().nullable(),
    chunk_count: z.number().int().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    processing_started_at: z.string().nullable().openapi({ description: 'ISO 8601 UTC' }),
    processing_completed_at: z.string().nullable().openapi({ description: 'ISO 8601 UTC' }),
  })
  .openapi('Document');

const DocumentIdParam = ContextIdParam.extend({
  id: z.string().openapi({ description: '`document:<id>` or `<id>`' }),
});

/**
 * OpenAPI entries for the plain routes below: documented, but with no validator in front of the
 * handler (which would parse, and so buffer, the upload).
 */
function documentDocumentRoutes(app: MemoryApp): void {
  const tags = ['documents'];
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/api/v1/{context_id}/documents',
    operationId: 'uploadDocument',
    tags,
    summary: 'Upload a document (multipart `file`, or a raw body with its content type)',
    description:
      'Multipart fields: `file`, optional `password` (PDF), optional `scopes` (JSON array or comma list). ' +
      'Raw body: the content type of the file, `?scopes=`, `?filename=`, header `X-Document-Password`. ' +
      'Processing is asynchronous: poll `GET .../documents/{id}`. Over the Context’s limit (50 MB by default): 413.',
    request: {
      params: ContextIdParam,
      body: {
        content: {
          'multipart/form-data': {
            schema: z.object({ file: z.string().openapi({ format: 'binary' }) }),
          },
          'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) },
        },
      },
    },
    responses: {
      202: jsonResponse(
        DocumentSchema.extend({ deduplicated: z.literal(false) }),
        'Queued for processing',
      ),
      200: jsonResponse(
        DocumentSchema.extend({ deduplicated: z.literal(true) }),
        'The same bytes were already uploaded',
      ),
      413: {
        description: 'payload-too-large: the file is over the Context’s upload limit',
        content: { 'application/problem+json': { schema: Problem } },
      },
      ...commonErrors,
      ...notFound,
    },
  });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/api/v1/{context_id}/documents',
    operationId: 'listDocuments',
    summary: 'Uploaded documents with their processing status, cursor-paginated',
    tags,
    request: {
      params: ContextIdParam,
      query: z.object({
        limit: z.number().int().min(1).max(MAX_PAGE).optional(),
        cursor: z.string().optional(),
      }),
    },
    responses: {
      200: jsonResponse(
        z.object({ documents: z.array(DocumentSchema), next_cursor: z.string().nullable() }),
        'A page of documents',
      ),
      ...commonErrors,
      ...notFound,
    },
  });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/api/v1/{context_id}/documents/{id}',
    operationId: 'getDocument',
    tags,
    summary: 'A document with its processing status and error',
    request: { params: DocumentIdParam },
    responses: { 200: jsonResponse(DocumentSchema, 'The document'), ...commonErrors, ...notFound },
  });
  app.openAPIRegistry.registerPath({
    method: 'delete',
    path: '/api/v1/{context_id}/documents/{id}',
    operationId: 'deleteDocument',
    tags,
    summary: 'Delete a document, its chunks from every index, and its file',
    request: { params: DocumentIdParam },
    responses: { 204: { description: 'Deleted' }, ...commonErrors, ...notFound },
  });
}

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
    const result = await perform(c, 'uploadDocument', {
      contextId: c.req.param('context_id'),
      request: c.req.raw,
    });
    return c.json(
      { ...result.document, deduplicated: result.deduplicated },
      result.deduplicated ? 200 : 202,
    );
  });
  app.get('/api/v1/:context_id/documents', async (c) => {
    const page = await perform(c, 'listDocuments', {
      contextId: c.req.param('context_id'),
      limit: pageLimit(c.req.query('limit')),
      cursor: c.req.query('cursor') ?? null,
    });
    return c.json(page, 200);
  });
  app.get('/api/v1/:context_id/documents/:id', async (c) => {
    const doc = await perform(c, 'getDocument', {
      contextId: c.req.param('context_id'),
      id: c.req.param('id'),
    });
    return c.json(doc, 200);
  });
  app.delete('/api/v1/:context_id/documents/:id', async (c) => {
    await perform(c, 'deleteDocument', {
      contextId: c.req.param('context_id'),
      id: c.req.param('id'),
    });
    return c.body(null, 204);
  });
}

/** Documents of a Context: upload, poll, list, delete. */
export const documentsRoutes: RouteModule = {
  name: 'documents',
  register(app) {
    documentDocumentRoutes(app);
    registerDocumentRoutes(app);
  },
};
