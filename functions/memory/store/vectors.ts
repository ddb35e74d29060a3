import type { StoredVector } from './types.ts';
import { hasValidity } from './validity.ts';
import { VectorMatrix, type VectorFilter } from './vector-matrix.ts';

/**
 * Exact cosine search over an in-memory copy of one model's vectors (packed, vector-matrix.ts),
 * loaded on first use and kept in step by every insert and delete. Vectors of another model id
 * are never compared.
 */
export class VectorCache {
  private modelId: string | null = null;
  private matrix = new VectorMatrix();

  /** The matrix for `modelId`, (re)loaded from SQLite when the model changes. */
  load(sql: SqlStorage, modelId: string): VectorMatrix {
    if (this.modelId === modelId) return this.matrix;
    const matrix = new VectorMatrix();
    // `valid_until` exists from schema V2 on; below it nothing can be closed.
    const closed = hasValidity(sql) ? 'i.valid_until IS NOT NULL' : '0';
    const rows = sql.exec<{
      item_seq: number;
      vector: ArrayBuffer;
      scopes: string;
      kind: string;
      closed: number;
    }>(
      `SELECT v.item_seq, v.vector, i.scopes, i.kind, ${closed} AS closed
         FROM item_vectors v JOIN items i ON i.seq = v.item_seq
        WHERE v.model_id = ?`,
      modelId,
    );
    for (const row of rows) {
      matrix.set(
        row.item_seq,
        // A view, not a copy: `set` copies it into the packed rows.
        new Float32Array(row.vector, 0, row.vector.byteLength >>> 2),
        JSON.parse(row.scopes) as string[],
        row.kind,
        row.closed === 1,
      );
    }
    this.modelId = modelId;
    this.matrix = matrix;
    return matrix;
  }

  onInsert(
    seq: number,
    vector: StoredVector,
    scopes: string[],
    kind: string,
    closed: boolean,
  ): void {
    if (this.modelId === vector.modelId) this.matrix.set(seq, vector.values, scopes, kind, closed);
    // A vector of another model replaces this one's row for the item in SQLite.
    else this.matrix.delete(seq);
  }

  onClose(seq: number): void {
    this.matrix.close(seq);
  }

  onDelete(seq: number): void {
    this.matrix.delete(seq);
  }

  /** Forget everything (e.g. after a rollback or a migration rewrote vectors). */
  reset(): void {
    this.modelId = null;
    this.matrix = new VectorMatrix();
  }
}

export function insertVector(
  sql: SqlStorage,
  cache: VectorCache,
  seq: number,
  vector: StoredVector,
  scopes: string[],
  kind: string,
  /** A re-embedded item keeps its validity: re-embedding never reopens a closed fact. */
  closed = false,
): void {
  const bytes = vector.values.buffer.slice(
    vector.values.byteOffset,
    vector.values.byteOffset + vector.values.byteLength,
  );
  sql.exec(
    `INSERT INTO item_vectors (item_seq, model_id, dims, vector) VALUES (?, ?, ?, ?)
     ON CONFLICT (item_seq) DO UPDATE SET model_id = excluded.model_id, dims = excluded.dims, vector = excluded.vector`,
    seq,
    vector.modelId,
    vector.values.length,
    bytes,
  );
  cache.onInsert(seq, vector, scopes, kind, closed);
}

/** A bound BLOB may hold at most 2 MB; vectors of one statement stay below 1 MiB. */
const MAX_VECTOR_BYTES = 1024 * 1024;

export interface NewVectorRow {
  seq: number;
  vector: StoredVector;
  scopes: string[];
  kind: string;
}

/**
 * `insertVector` for a batch of new items: their vectors concatenated into one BLOB and cut
 * back apart with `substr` (byte offsets, 1-based) inside one statement per chunk.
 */
export function insertVectors(
  sql: SqlStorage,
  cache: VectorCache,
  rows: readonly NewVectorRow[],
): void {
  let start = 0;
  while (start < rows.length) {
    let end = start;
    let bytes = 0;
    while (end < rows.length) {
      const size = rows[end]?.vector.values.byteLength ?? 0;
      if (end > start && bytes + size > MAX_VECTOR_BYTES) break;
      bytes += size;
      end++;
    }
    const blob = new Uint8Array(bytes);
    const meta: [number, string, number, number, number][] = [];
    let offset = 0;
    for (const row of rows.slice(start, end)) {
      const v = row.vector.values;
      blob.set(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), offset);
      meta.push([row.seq, row.vector.modelId, v.length, offset + 1, v.byteLength]);
      offset += v.byteLength;
    }
    sql.exec(
      `INSERT INTO item_vectors (item_seq, model_id, dims, vector)
       SELECT value ->> 0, value ->> 1, value ->> 2, substr(?, value ->> 3, value ->> 4)
         FROM json_each(?) WHERE true
       ON CONFLICT (item_seq) DO UPDATE SET model_id = excluded.model_id, dims = excluded.dims, vector = excluded.vector`,
      blob.buffer,
      JSON.stringify(meta),
    );
    start = end;
  }
  for (const row of rows) cache.onInsert(row.seq, row.vector, row.scopes, row.kind, false);
}

export function deleteVector(sql: SqlStorage, cache: VectorCache, seq: number): void {
  sql.exec('DELETE FROM item_vectors WHERE item_seq = ?', seq);
  cache.onDelete(seq);
}

export interface VectorHit {
  seq: number;
  score: number;
}

/** Top `limit` items by cosine whose scopes pass `accept`, best first (ties: lower `seq`). */
export function vectorSearch(
  sql: SqlStorage,
  cache: VectorCache,
  query: StoredVector,
  limit: number,
  accept: VectorFilter,
): VectorHit[] {
  return cache.load(sql, query.modelId).search(query.values, limit, accept);
}

/** Items that have no vector for `modelId` (to re-embed after a model change). */
export function itemsMissingVectors(
  sql: SqlStorage,
  modelId: string,
  limit: number,
): { seq: number; content: string }[] {
  return sql
    .exec<{ seq: number; content: string }>(
      `SELECT i.seq, i.content FROM items i LEFT JOIN item_vectors v ON v.item_seq = i.seq
        WHERE v.item_seq IS NULL OR v.model_id <> ? ORDER BY i.seq LIMIT ?`,
      modelId,
      limit,
    )
    .toArray();
}
