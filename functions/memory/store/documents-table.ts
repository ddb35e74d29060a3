import { lensMatches } from '../scopes/lens.ts';
import { deleteItemsBySource, insertItems } from './items.ts';
import type { NewItem } from './types.ts';
import type { VectorCache } from './vectors.ts';

/**
 * Uploaded documents of one Context (table created by schema V2). The file itself lives in R2
 * (`blob_key`); its chunks are `items` rows of kind `chunk` with `source_id = document:<id>`.
 */

export type DocumentStatus =
  'queued' | 'extracting' | 'chunking' | 'embedding' | 'ready' | 'failed';
export const DOCUMENT_DDL = `CREATE TABLE documents (
  id TEXT PRIMARY KEY,
  filename TEXT,
  content_type TEXT NOT NULL,
  size_bytes INTEGER NOT NULL,
  sha256 TEXT NOT NULL UNIQUE,
  blob_key TEXT NOT NULL,
  status TEXT NOT NULL,
  error TEXT,
  scopes TEXT NOT NULL DEFAULT '[]',
  metadata TEXT,
  password TEXT,
  pages INTEGER,
  chunk_count INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  processing_started_at TEXT,
  processing_completed_at TEXT
)`;

/** A document as the API shows it (never its password or blob key). */
export interface DocumentRecord {
  id: string;
  filename: string | null;
  content_type: string;
  size_bytes: number;
  sha256: string;
  status: DocumentStatus;
  error: string | null;
  scopes: string[];
  pages: number | null;
  chunk_count: number | null;
  created_at: string;
  updated_at: string;
  processing_started_at: string | null;
  processing_completed_at: string | null;
}

interface DocumentRow extends Record<string, SqlStorageValue> {
  id: string;
  filename: string | null;
  content_type: string;
  size_bytes: number;
  sha256: string;
  blob_key: string;
  status: string;
  error: string | null;
  scopes: string;
  metadata: string | null;
  password: string | null;
  pages: number | null;
  chunk_count: number | null;
  created_at: string;
  updated_at: string;
  processing_started_at: string | null;
  processing_completed_at: string | null;
}

/** What the processing job needs besides the public record. */
export interface DocumentWork {
  record: DocumentRecord;
  blob_key: string;
  password: string | null;
}

export const documentSourceId = (id: string) => `document:${id}`;

function toRecord(row: DocumentRow): DocumentRecord {
  return {
    id: `document:${row.id}`,
    filename: row.filename,
    content_type: row.content_type,
    size_bytes: row.size_bytes,
    sha256: row.sha256,
    status: row.status as DocumentStatus,
    error: row.error,
    scopes: JSON.parse(row.scopes) as string[],
    pages: row.pages,
    chunk_count: row.chunk_count,
    created_at: row.created_at,
    updated_at: row.updated_at,
    processing_started_at: row.processing_started_at,
    processing_completed_at: row.processing_completed_at,
  };
}

function row(sql: SqlStorage, id: string): DocumentRow | null {
  return sql.exec<DocumentRow>('SELECT * FROM documents WHERE id = ?', id).toArray()[0] ?? null;
}

export interface NewDocument {
  id: string;
  filename: string | null;
  content_type: string;
  size_bytes: number;
  sha256: string;
  blob_key: string;
  scopes: string[];
  password: string | null;
}

/** Same scopes, in any order: the only documents an upload may collapse into. */
function sameScopes(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((s) => right.has(s));
}

/** Before the `document-dedup-per-reader` step, `sha256` is still UNIQUE (V2). */
function hashIsUnique(sql: SqlStorage): boolean {
  return (
    sql
      .exec<{ n: number }>(
        `SELECT COUNT(*) AS n FROM pragma_index_list('documents') WHERE "unique" = 1 AND origin = 'u'`,
      )
      .one().n > 0
  );
}

/**
 * Inserts a queued document, or returns the one already holding the same bytes, but only when
 * the uploader may read that one (`lens`: its read grant) and it has exactly the scopes asked for.
 * Any other document with the same bytes is neither returned nor named: the upload is stored as a
 * document of its own. Null while the table still has V2's UNIQUE hash and another document holds
 * the bytes (the Context awaits its schema upgrade).
 */
export function createDocument(
  sql: SqlStorage,
  doc: NewDocument,
  lens: string[][],
  now: string,
): { record: DocumentRecord; deduplicated: boolean } | null {
  const sameBytes = sql
    .exec<DocumentRow>('SELECT * FROM documents WHERE sha256 = ? ORDER BY created_at', doc.sha256)
    .toArray()
    .map(toRecord);
  const mine = sameBytes.find(
    (d) => lensMatches(lens, d.scopes) && sameScopes(d.scopes, doc.scopes),
  );
  if (mine) return { record: mine, deduplicated: true };
  if (sameBytes.length > 0 && hashIsUnique(sql)) return null;
  sql.exec(
    `INSERT INTO documents (id, filename, content_type, size_bytes, sha256, blob_key, status, scopes,
       password, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?)`,
    doc.id,
    doc.filename,
    doc.content_type,
    doc.size_bytes,
    doc.sha256,
    doc.blob_key,
    JSON.stringify(doc.scopes),
    doc.password,
    now,
    now,
  );
  const created = row(sql, doc.id);
  if (!created) throw new Error(`document ${doc.id} vanished after insert`);
  return { record: toRecord(created), deduplicated: false };
}

export function getDocument(sql: SqlStorage, id: string): DocumentRecord | null {
  const found = row(sql, id);
  return found ? toRecord(found) : null;
}

export function getDocumentWork(sql: SqlStorage, id: string): DocumentWork | null {
  const found = row(sql, id);
  return found
    ? { record: toRecord(found), blob_key: found.blob_key, password: found.password }
    : null;
}

/** A page of documents in creation order, filtered by lens; `next` is the id to continue after. */
export function listDocuments(
  sql: SqlStorage,
  input: { lens: string[][]; after: string | null; limit: number },
): { documents: DocumentRecord[]; next: string | null } {
  const documents: DocumentRecord[] = [];
  const cursor = sql.exec<DocumentRow>(
    'SELECT * FROM documents WHERE id > ? ORDER BY id',
    input.after ?? '',
  );
  let last: string | null = null;
  for (const r of cursor) {
    if (documents.length === input.limit) return { documents, next: last };
    last = r.id;
    const record = toRecord(r);
    if (lensMatches(input.lens, record.scopes)) documents.push(record);
  }
  return { documents, next: null };
}

const TERMINAL: ReadonlySet<string> = new Set(['ready', 'failed']);

/**
 * Moves a document to a processing step. Refused (false) once it is ready or failed, so a
 * re-delivered job cannot reopen a finished document; `processing_started_at` is set once.
 */
export function markDocumentStep(
  sql: SqlStorage,
  id: string,
  status: DocumentStatus,
  now: string,
): boolean {
  const found = row(sql, id);
  if (!found || TERMINAL.has(found.status)) return false;
  sql.exec(
    `UPDATE documents SET status = ?, updated_at = ?,
       processing_started_at = COALESCE(processing_started_at, ?) WHERE id = ?`,
    status,
    now,
    now,
    id,
  );
  return true;
}

/** Ends processing with an error; the document keeps no chunks and forgets its password. */
export function failDocument(
  sql: SqlStorage,
  vectors: VectorCache,
  id: string,
  error: string,
  now: string,
): boolean {
  const found = row(sql, id);
  if (!found || TERMINAL.has(found.status)) return false;
  deleteItemsBySource(sql, vectors, documentSourceId(id));
  sql.exec(
    `UPDATE documents SET status = 'failed', error = ?, password = NULL, chunk_count = 0,
       updated_at = ?, processing_started_at = COALESCE(processing_started_at, ?),
       processing_completed_at = ? WHERE id = ?`,
    error,
    now,
    now,
    now,
    id,
  );
  return true;
}

/**
 * Replaces the document's chunks with `chunks` and marks it ready. Any chunks an interrupted
 * earlier attempt left are removed first, so the document ends with exactly one set.
 * Call inside a transaction.
 */
export function completeDocument(
  sql: SqlStorage,
  vectors: VectorCache,
  id: string,
  chunks: NewItem[],
  pages: number | null,
  now: string,
): boolean {
  const found = row(sql, id);
  if (!found || TERMINAL.has(found.status)) return false;
  deleteItemsBySource(sql, vectors, documentSourceId(id));
  insertItems(sql, vectors, chunks, now);
  sql.exec(
    `UPDATE documents SET status = 'ready', error = NULL, password = NULL, pages = ?, chunk_count = ?,
       updated_at = ?, processing_started_at = COALESCE(processing_started_at, ?),
       processing_completed_at = ? WHERE id = ?`,
    pages,
    chunks.length,
    now,
    now,
    now,
    id,
  );
  return true;
}

/**
 * Deletes a document and its chunks from every index; returns its blob key for R2 removal, or
 * null when there is nothing to remove. Each upload writes its own blob key (not content
 * addressed), but a blob another row still names is never handed out for deletion.
 */
export function deleteDocument(sql: SqlStorage, vectors: VectorCache, id: string): string | null {
  const found = row(sql, id);
  if (!found) return null;
  deleteItemsBySource(sql, vectors, documentSourceId(id));
  sql.exec('DELETE FROM documents WHERE id = ?', id);
  const shared = sql
    .exec('SELECT 1 FROM documents WHERE blob_key = ? LIMIT 1', found.blob_key)
    .toArray().length;
  return shared > 0 ? null : found.blob_key;
}
