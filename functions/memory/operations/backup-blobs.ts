import type { AuthContext } from '../auth/principal.ts';
import { failure } from '../errors.ts';
import { streamBodyToR2, UploadTooLarge } from '../documents/read-upload.ts';
import type { DocumentBlob } from '../store/document-blobs.ts';
import { requireContext } from './contexts.ts';
import type { OperationDeps } from './deps.ts';

/**
 * The blobs that complete a backup: an export references each document's file by sha256;
 * `GET .../export/blobs/{sha256}` streams it out and `PUT .../import/blobs/{sha256}` puts it back
 * under the restored Context's own key, checked against the size and hash its row records.
 */

const SHA256 = /^[0-9a-f]{64}$/;

async function documentBlob(
  deps: OperationDeps,
  auth: AuthContext,
  contextId: string,
  sha256: string,
): Promise<DocumentBlob> {
  await requireContext(deps, auth, contextId);
  if (!SHA256.test(sha256)) {
    throw failure('validation-error', 'sha256: 64 lowercase hex digits (a document row’s sha256)');
  }
  const blob = await deps.store(contextId).documentBlob(sha256);
  if (!blob) throw failure('not-found', `no document with sha256 ${sha256} in this Context`);
  return blob;
}

export async function exportBlob(
  deps: OperationDeps,
  auth: AuthContext,
  contextId: string,
  sha256: string,
): Promise<{ body: ReadableStream<Uint8Array>; blob: DocumentBlob }> {
  const blob = await documentBlob(deps, auth, contextId, sha256);
  const object = await deps.env.BLOBS.get(blob.blob_key);
  if (!object) {
    throw failure('not-found', `the file of the document with sha256 ${sha256} is not in storage`);
  }
  return { body: object.body, blob };
}

/** Idempotent: a blob already in place is kept (200, `restored: false`). */
export async function importBlob(
  deps: OperationDeps,
  auth: AuthContext,
  contextId: string,
  sha256: string,
  request: Request,
): Promise<{ sha256: string; size_bytes: number; restored: boolean }> {
  const blob = await documentBlob(deps, auth, contextId, sha256);
  if (await deps.env.BLOBS.head(blob.blob_key)) {
    return { sha256, size_bytes: blob.size_bytes, restored: false };
  }
  if (!request.body) throw failure('validation-error', 'the request body (the file) is empty');
  const header = request.headers.get('content-length');
  const length = header === null ? null : Number.parseInt(header, 10);
  let stored;
  try {
    stored = await streamBodyToR2(
      deps.env.BLOBS,
      blob.blob_key,
      request.body,
      length !== null && Number.isSafeInteger(length) ? length : null,
      blob.size_bytes,
      blob.content_type,
    );
  } catch (err) {
    await deps.env.BLOBS.delete(blob.blob_key);
    if (err instanceof UploadTooLarge) {
      throw failure(
        'validation-error',
        `the file is larger than its document’s ${blob.size_bytes} bytes`,
      );
    }
    throw err;
  }
  if (stored.sha256 !== sha256 || stored.bytes !== blob.size_bytes) {
    await deps.env.BLOBS.delete(blob.blob_key);
    throw failure(
      'validation-error',
      `the file does not match its document (${stored.bytes} bytes, sha256 ${stored.sha256}); nothing was kept`,
    );
  }
  return { sha256, size_bytes: stored.bytes, restored: true };
}
