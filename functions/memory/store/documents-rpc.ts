import { fail, ok, type Result } from '../errors.ts';
import * as documents from './documents-table.ts';
import type {
  DocumentRecord,
  DocumentStatus,
  DocumentWork,
  NewDocument,
} from './documents-table.ts';
import { readSchemaVersion } from './schema/runner.ts';
import type { NewItem } from './types.ts';
import type { VectorCache } from './vectors.ts';

/**
 * The document operations ContextStore exposes over RPC, as plain functions. A Context still
 * on V1 has no documents table yet: it answers 503 with Retry-After until the scheduler's
 * migration reaches it, rather than failing with a SQL error.
 */

/** The schema version that introduced documents (schema/v2.ts). */
export const DOCUMENTS_SINCE = 2;

export interface StoreHandle {
  storage: DurableObjectStorage;
  vectors: VectorCache;
}

function ready(h: StoreHandle): Result<null> {
  if (readSchemaVersion(h.storage.sql) >= DOCUMENTS_SINCE) return ok(null);
  return fail({
    kind: 'service-unavailable',
    detail: 'this Context is being upgraded to a schema with documents; try again shortly',
    retryAfter: 60,
  });
}

function atomically<T>(h: StoreHandle, fn: () => T): T {
  try {
    return h.storage.transactionSync(fn);
  } catch (err) {
    h.vectors.reset();
    throw err;
  }
}

const now = () => new Date().toISOString();

/** `lens`: the uploader's read grant; de-duplication only ever returns a document inside it. */
export function create(
  h: StoreHandle,
  doc: NewDocument,
  lens: string[][],
): Result<{ document: DocumentRecord; deduplicated: boolean }> {
  const gate = ready(h);
  if (!gate.ok) return gate;
  const created = atomically(h, () => documents.createDocument(h.storage.sql, doc, lens, now()));
  if (created === null) {
    return fail({
      kind: 'service-unavailable',
      detail:
        'this Context is being upgraded to a schema that stores this document; try again shortly',
      retryAfter: 60,
    });
  }
  return ok({ document: created.record, deduplicated: created.deduplicated });
}

export function get(h: StoreHandle, id: string): Result<DocumentRecord> {
  const gate = ready(h);
  if (!gate.ok) return gate;
  const doc = documents.getDocument(h.storage.sql, id);
  return doc
    ? ok(doc)
    : fail({ kind: 'not-found', detail: `no document document:${id} in this Context` });
}

export function list(
  h: StoreHandle,
  input: { lens: string[][]; after: string | null; limit: number },
): Result<{ documents: DocumentRecord[]; next: string | null }> {
  const gate = ready(h);
  if (!gate.ok) return gate;
  return ok(documents.listDocuments(h.storage.sql, input));
}

export function remove(h: StoreHandle, id: string): Result<string | null> {
  const gate = ready(h);
  if (!gate.ok) return gate;
  return ok(atomically(h, () => documents.deleteDocument(h.storage.sql, h.vectors, id)));
}

export function work(h: StoreHandle, id: string): DocumentWork | null {
  if (!ready(h).ok) return null;
  return documents.getDocumentWork(h.storage.sql, id);
}

export function step(h: StoreHandle, id: string, status: DocumentStatus): boolean {
  return documents.markDocumentStep(h.storage.sql, id, status, now());
}

export function failed(h: StoreHandle, id: string, error: string): boolean {
  return atomically(h, () => documents.failDocument(h.storage.sql, h.vectors, id, error, now()));
}

export function complete(
  h: StoreHandle,
  id: string,
  chunks: NewItem[],
  pages: number | null,
): boolean {
  return atomically(h, () =>
    documents.completeDocument(h.storage.sql, h.vectors, id, chunks, pages, now()),
  );
}
