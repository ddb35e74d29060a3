import { readSchemaVersion } from './schema/runner.ts';

/**
 * Read-only questions about documents' R2 blobs, for backup (which blob has this hash) and for
 * orphan reconciliation (which keys does this Context still reference). A Context still below
 * the documents table (schema V2) has none.
 */

const DOCUMENTS_SINCE = 2;

export interface DocumentBlob {
  blob_key: string;
  content_type: string;
  size_bytes: number;
}

export function blobBySha(sql: SqlStorage, sha256: string): DocumentBlob | null {
  if (readSchemaVersion(sql) < DOCUMENTS_SINCE) return null;
  return (
    sql
      .exec<{
        blob_key: string;
        content_type: string;
        size_bytes: number;
      }>('SELECT blob_key, content_type, size_bytes FROM documents WHERE sha256 = ?', sha256)
      .toArray()[0] ?? null
  );
}

/** Which of `keys` a document row of this Context references, with the bytes' sha256. */
export function referencedBlobs(
  sql: SqlStorage,
  keys: string[],
): { blob_key: string; sha256: string }[] {
  if (keys.length === 0 || readSchemaVersion(sql) < DOCUMENTS_SINCE) return [];
  return sql
    .exec<{ blob_key: string; sha256: string }>(
      `SELECT blob_key, sha256 FROM documents WHERE blob_key IN (${keys.map(() => '?').join(', ')})`,
      ...keys,
    )
    .toArray();
}
