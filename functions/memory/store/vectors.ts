import { cosine } from '../retrieval/embedder.ts';
import type { StoredVector } from './types.ts';
import { hasValidity } from './validity.ts';

interface CachedVector {
  values: Float32Array;
  scopes: string[];
  kind: string;
  /** Closed by supersession or merging (`items.valid_until` set): skipped unless asked for. */
  closed: boolean;
}

/**
 * Exact cosine search over an in-memory copy of one model's vectors, loaded on first use and kept
 * in step by every insert and delete. Vectors of another model id are never compared.
 */
export class VectorCache {
  private modelId: string | null = null;
  private entries = new Map<number, CachedVector>();

  /** The cache for `modelId`, (re)loaded from SQLite when the model changes. */
  load(sql: SqlStorage, modelId: string): Map<number, CachedVector> {
    if (this.modelId === modelId) return this.entries;
    const entries = new Map<number, CachedVector>();
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
      entries.set(row.item_seq, {
        values: new Float32Array(row.vector.slice(0)),
        scopes: JSON.parse(row.scopes) as string[],
        kind: row.kind,
        closed: row.closed === 1,
      });
    }
    this.modelId = modelId;
    this.entries = entries;
    return entries;
  }

  onInsert(
    seq: number,
    vector: StoredVector,
    scopes: string[],
    kind: string,
    closed: boolean,
  ): void {
    if (this.modelId === vector.modelId)
      this.entries.set(seq, { values: vector.values, scopes, kind, closed });
  }

  onClose(seq: number): void {
    const entry = this.entries.get(seq);
    if (entry) entry.closed = true;
  }

  onDelete(seq: number): void {
    this.entries.delete(seq);
  }

  /** Forget everything (e.g. after a rollback or a migration rewrote vectors). */
  reset(): void {
    this.modelId = null;
    this.entries = new Map();
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

export function deleteVector(sql: SqlStorage, cache: VectorCache, seq: number): void {
  sql.exec('DELETE FROM item_vectors WHERE item_seq = ?', seq);
  cache.onDelete(seq);
}

export interface VectorHit {
  seq: number;
  score: number;
}

/** Top `limit` items by cosine whose scopes pass `accept`, best first. */
export function vectorSearch(
  sql: SqlStorage,
  cache: VectorCache,
  query: StoredVector,
  limit: number,
  accept: (scopes: string[], kind: string, closed: boolean) => boolean,
): VectorHit[] {
  const hits: VectorHit[] = [];
  for (const [seq, entry] of cache.load(sql, query.modelId)) {
    if (!accept(entry.scopes, entry.kind, entry.closed)) continue;
    hits.push({ seq, score: cosine(query.values, entry.values) });
  }
  hits.sort((a, b) => b.score - a.score || a.seq - b.seq);
  return hits.slice(0, limit);
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
