import type { AuthContext } from '../auth/principal.ts';
import { failure, MemoryError, unwrap } from '../errors.ts';
import { enqueueJob } from '../jobs/enqueue.ts';
import {
  MULTIPART_OVERHEAD_BYTES,
  sha256Hex,
  streamBodyToR2,
  UploadTooLarge,
  limitedHashingStream,
} from '../documents/read-upload.ts';
import { mediaTypeOf } from '../documents/detect-format.ts';
import { refuseUnread } from '../documents/refuse-unread.ts';
import { uploadLimit } from '../documents/upload-limit.ts';
import { checkPaths, itemWithinGrant } from '../scopes/grants.ts';
import { lensFromGrant } from '../scopes/lens.ts';
import { scopePathProblem } from '../scopes/path.ts';
import { textProblem } from '../../../src/lib/well-formed-text.ts';
import type { DocumentRecord } from '../store/documents-table.ts';
import { requireContext } from './contexts.ts';
import type { OperationDeps } from './deps.ts';

export interface UploadInput {
  contextId: string;
  request: Request;
}

export interface UploadResult {
  document: DocumentRecord;
  deduplicated: boolean;
}

function tooLarge(limit: number): MemoryError {
  return failure(
    'payload-too-large',
    `the file is larger than this Context's upload limit of ${limit} bytes`,
  );
}

/** `scopes` as a JSON array or a comma list. */
function parseScopes(value: string | null): string[] {
  if (value === null || value.trim() === '') return [];
  if (value.trim().startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      throw failure('validation-error', 'scopes: not a JSON array of scope paths');
    }
    if (!Array.isArray(parsed) || !parsed.every((s): s is string => typeof s === 'string')) {
      throw failure('validation-error', 'scopes: expected an array of scope path strings');
    }
    return parsed;
  }
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function checkScopes(auth: AuthContext, scopes: string[]): void {
  for (const scope of scopes) {
    const problem = scopePathProblem(scope);
    if (problem) throw failure('validation-error', `scopes: ${problem}`);
  }
  const denied = checkPaths(auth.key, 'memory:write', scopes);
  if (denied) throw new MemoryError(denied);
  if (!itemWithinGrant(auth.key, 'memory:write', scopes)) {
    throw failure(
      'forbidden',
      'this key may not upload unscoped documents; give the document a scope inside its write grant',
    );
  }
}

/** What the request says about the document, all checked before any byte goes to R2. */
interface UploadMeta {
  filename: string | null;
  contentType: string;
  password: string | null;
  scopes: string[];
}

const MAX_FILENAME_CHARS = 255;

function checkFilename(filename: string | null): void {
  if (filename === null) return;
  if (filename.length > MAX_FILENAME_CHARS) {
    throw failure('validation-error', `filename: at most ${MAX_FILENAME_CHARS} characters`);
  }
  const problem = textProblem(filename);
  if (problem) throw failure('validation-error', `filename: ${problem}`);
  // Control characters would end up in headers and logs.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(filename)) {
    throw failure('validation-error', 'filename: control characters are not allowed');
  }
}

function checkMeta(auth: AuthContext, meta: UploadMeta): void {
  checkFilename(meta.filename);
  const fields: [string, string | null][] = [
    ['password', meta.password],
    ...meta.scopes.map((s, i): [string, string] => [`scopes[${i}]`, s]),
  ];
  for (const [field, value] of fields) {
    const problem = value === null ? null : textProblem(value);
    if (problem) throw failure('validation-error', `${field}: ${problem}`);
  }
  checkScopes(auth, meta.scopes);
}

function declaredLength(request: Request): number | null {
  const header = request.headers.get('content-length');
  if (header === null) return null;
  const n = Number.parseInt(header, 10);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/**
 * multipart/form-data: refused from Content-Length when even the framing allowance cannot make
 * it fit; otherwise the body is read through a counter that stops at limit + framing, so at most
 * that much is ever held, then the file part itself is checked against the limit. Nothing is
 * stored here: the caller checks the fields first.
 */
async function readMultipart(
  request: Request,
  limit: number,
): Promise<{ meta: UploadMeta; file: File }> {
  const length = declaredLength(request);
  const ceiling = limit + MULTIPART_OVERHEAD_BYTES;
  if (length !== null && length > ceiling) throw tooLarge(limit);
  if (!request.body) throw failure('validation-error', 'file: the multipart body is empty');
  const counter = limitedHashingStream(ceiling);
  let form: FormData;
  try {
    form = await new Response(request.body.pipeThrough(counter.stream), {
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
    }).formData();
  } catch (err) {
    if (counter.exceeded()) throw tooLarge(limit);
    const detail = err instanceof Error ? err.message : String(err);
    throw failure('validation-error', `the multipart body could not be parsed: ${detail}`);
  }
  const file = form.get('file');
  if (file === null || typeof file === 'string') {
    throw failure(
      'validation-error',
      'file: a multipart part named "file" holding the document is required',
    );
  }
  if (file.size > limit) throw tooLarge(limit);
  if (file.size === 0) throw failure('validation-error', 'file: the document is empty');
  const password = form.get('password');
  const scopes = form.get('scopes');
  return {
    file,
    meta: {
      filename: file.name || null,
      contentType: mediaTypeOf(file.type) || 'application/octet-stream',
      password: typeof password === 'string' && password !== '' ? password : null,
      scopes: parseScopes(typeof scopes === 'string' ? scopes : null),
    },
  };
}

interface Stored {
  bytes: number;
  sha256: string;
}

/** A raw body with its own content type: what the URL and headers say about it. */
function rawMeta(request: Request, limit: number): UploadMeta {
  const length = declaredLength(request);
  if (length !== null && length > limit) throw tooLarge(limit);
  if (!request.body || length === 0)
    throw failure('validation-error', 'the request body (the document) is empty');
  const url = new URL(request.url);
  return {
    filename: url.searchParams.get('filename'),
    contentType: mediaTypeOf(request.headers.get('content-type')) || 'application/octet-stream',
    password: request.headers.get('x-document-password'),
    scopes: parseScopes(url.searchParams.get('scopes')),
  };
}

/** Streams the raw body into R2; the caller deletes `key` on any failure. */
async function storeRaw(
  deps: OperationDeps,
  request: Request,
  key: string,
  limit: number,
  contentType: string,
): Promise<Stored> {
  if (!request.body) throw failure('validation-error', 'the request body (the document) is empty');
  let stored;
  try {
    stored = await streamBodyToR2(
      deps.env.BLOBS,
      key,
      request.body,
      declaredLength(request),
      limit,
      contentType,
    );
  } catch (err) {
    if (err instanceof UploadTooLarge) throw tooLarge(limit);
    throw err;
  }
  if (stored.bytes === 0)
    throw failure('validation-error', 'the request body (the document) is empty');
  return stored;
}

/**
 * `POST /api/v1/{ctx}/documents`: stores the file in R2, records a queued document and enqueues
 * its processing. Every field (scopes, grant, filename, declared size) is checked before the
 * first byte goes to R2; once it has, any failure removes the blob again. The same bytes again,
 * with the same scopes, return the existing document (`deduplicated: true`) when the uploader may
 * read it, and leave no second blob behind; otherwise the upload is a document of its own.
 */
export async function uploadDocument(
  deps: OperationDeps,
  auth: AuthContext,
  input: UploadInput,
): Promise<UploadResult> {
  const { limit, form, meta } = await refuseUnread(input.request, async () => {
    const context = await requireContext(deps, auth, input.contextId);
    const limit = uploadLimit(context, deps.env.MAX_UPLOAD_BYTES);
    const multipart =
      mediaTypeOf(input.request.headers.get('content-type')) === 'multipart/form-data';
    const form = multipart ? await readMultipart(input.request, limit) : null;
    const meta = form ? form.meta : rawMeta(input.request, limit);
    checkMeta(auth, meta);
    return { limit, form, meta };
  });
  const id = `doc_${crypto.randomUUID().replaceAll('-', '')}`;
  const key = `documents/${input.contextId}/${id}`;
  try {
    let stored: Stored;
    if (form) {
      const bytes = new Uint8Array(await form.file.arrayBuffer());
      await deps.env.BLOBS.put(key, bytes, { httpMetadata: { contentType: meta.contentType } });
      stored = { bytes: bytes.byteLength, sha256: sha256Hex(bytes) };
    } else {
      stored = await storeRaw(deps, input.request, key, limit, meta.contentType);
    }
    const created = unwrap(
      await deps.store(input.contextId).createDocument(
        {
          id,
          filename: meta.filename,
          content_type: meta.contentType,
          size_bytes: stored.bytes,
          sha256: stored.sha256,
          blob_key: key,
          scopes: meta.scopes,
          password: meta.password,
        },
        // De-duplication only among documents this uploader may read.
        lensFromGrant(auth.key.grants['memory:read']),
      ),
    );
    if (created.deduplicated) {
      await deps.env.BLOBS.delete(key);
      return created;
    }
    try {
      await enqueueJob(deps.env, {
        kind: 'document_process',
        context_id: input.contextId,
        document_id: id,
      });
    } catch (err) {
      await deps.store(input.contextId).deleteDocument(id);
      throw err;
    }
    return created;
  } catch (err) {
    await deps.env.BLOBS.delete(key);
    throw err;
  }
}
