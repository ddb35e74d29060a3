import { countedSinceLastWrite, keptCount } from './counts.ts';
import { budgetOf } from './memory-budget.ts';
import { hasTable } from './schema-facts.ts';
import type { StoredVector } from './types.ts';
import { hasValidity } from './validity.ts';
import { ivfSearch, streamedScan, type CandidateReader } from './vector-scans.ts';
import { packAt, packTail, tailRows } from './vector-blocks.ts';
import {
  addPostings,
  backfill,
  generationBytes,
  hasBlocks,
  loadGenerations,
  removePosting,
  trainGeneration,
  workFor,
  type Generation,
  type PostingEntry,
  type ProbeFactor,
} from './vector-ivf.ts';
import { VectorMatrix, type ScoredSeq, type VectorFilter } from './vector-matrix.ts';

/**
 * A Context's vector search, in the form its size allows (docs/scale.md):
 *
 * - **In memory, exact**: while one model's vectors fit half the object's memory budget
 *   (memory-budget.ts), they are packed in a `VectorMatrix`, loaded on first use and kept in step
 *   by every insert and delete: the fastest scan.
 * - **IVF from SQLite** (vector-ivf.ts): above that, only the index's centroids are held; a query
 *   reads the lists it probes and rescores the shortlist with the stored vectors.
 * - **Streamed exact scan**: above the in-memory size while the index's first generation is
 *   being trained or filled (a background step, `maintain`), the vectors are read from SQLite
 *   row by row, holding only the best hits.
 *
 * Vectors of another model id are never compared. Everything held is one part of the budget
 * (`vectors`), dropped whole when the budget needs room: it is all a copy of SQLite.
 */
export class VectorCache {
  private modelId: string | null = null;
  private matrix: VectorMatrix | null = null;
  private readonly gens = new Map<string, Generation[]>();
  /** Asks the object for a background step (an alarm); set by the object. */
  private scheduler: (() => void) | null = null;
  /** Asked and not run yet: one alarm serves every write until it runs. */
  private asked = false;
  /**
   * Each model's tail rows (vector-blocks.ts) as far as this object knows: counted once, then
   * kept by its writes, so a background step after every write batch does not count them.
   */
  private readonly tails = new Map<string, number>();

  setScheduler(schedule: () => void): void {
    this.scheduler = schedule;
  }

  private schedule(): void {
    if (this.asked || !this.scheduler) return;
    this.asked = true;
    this.scheduler();
  }

  private bytes(): number {
    let sum = this.matrix?.bytes ?? 0;
    for (const gens of this.gens.values()) for (const g of gens) sum += generationBytes(g);
    return sum;
  }

  /** Registers this cache as the `vectors` part of `sql`'s budget and marks it used. */
  private charge(sql: SqlStorage): void {
    const budget = budgetOf(sql);
    budget.register('vectors', { bytes: () => this.bytes(), drop: () => this.reset() });
  }

  /** The exact in-memory matrix for `modelId`, (re)loaded from SQLite when the model changes. */
  load(sql: SqlStorage, modelId: string): VectorMatrix {
    if (this.modelId === modelId && this.matrix) return this.matrix;
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

  /** The model's IVF generations (none below schema step 12 or before the first training). */
  generations(sql: SqlStorage, modelId: string): Generation[] {
    if (!hasTable(sql, '_vector_gens')) return [];
    let gens = this.gens.get(modelId);
    if (!gens) {
      gens = loadGenerations(sql, modelId);
      this.gens.set(modelId, gens);
    }
    return gens;
  }

  onInsert(
    sql: SqlStorage,
    seq: number,
    vector: StoredVector,
    scopes: string[],
    kind: string,
    closed: boolean,
  ): void {
    this.onInsertMany(sql, [{ seq, vector, scopes, kind }], closed);
  }

  /** `onInsert` for a batch: each model's new codes written by one statement (`addPostings`). */
  onInsertMany(sql: SqlStorage, rows: readonly NewVectorRow[], closed: boolean): void {
    const byModel = new Map<string, NewVectorRow[]>();
    for (const row of rows) {
      const { seq, vector } = row;
      if (this.matrix && this.modelId === vector.modelId)
        this.matrix.set(seq, vector.values, row.scopes, row.kind, closed);
      // A vector of another model replaces this one's row for the item in SQLite.
      else this.matrix?.delete(seq);
      const same = byModel.get(vector.modelId);
      if (same) same.push(row);
      else byModel.set(vector.modelId, [row]);
    }
    for (const [modelId, written] of byModel) {
      const latest = this.generations(sql, modelId).at(-1);
      const tail = this.tails.get(modelId);
      if (tail !== undefined) this.tails.set(modelId, tail + written.length);
      const entries: PostingEntry[] = [];
      for (const { seq, vector, scopes, kind } of written) {
        if (latest && latest.dims === vector.values.length)
          entries.push({ seq, kind, scopes: JSON.stringify(scopes), values: vector.values });
        else if (hasTable(sql, '_vector_postings')) removePosting(sql, seq, false);
      }
      if (latest) addPostings(sql, modelId, latest, entries);
    }
  }

  onClose(seq: number): void {
    this.matrix?.close(seq);
  }

  onDelete(sql: SqlStorage, seq: number): void {
    this.matrix?.delete(seq);
    if (!hasTable(sql, '_vector_postings') || !removePosting(sql, seq, true)) return;
    // The same count as SQLite's, on the generations held; enough dead asks for a rewrite.
    for (const [modelId, gens] of this.gens) {
      const latest = gens.at(-1);
      if (!latest) continue;
      latest.dead += 1;
      if (workFor(gens, vectorCount(sql, modelId)) !== null) this.schedule();
    }
  }

  /** Forget everything (e.g. after a rollback or a migration rewrote vectors). */
  reset(): void {
    this.asked = false;
    this.tails.clear();
    this.modelId = null;
    this.matrix = null;
    this.gens.clear();
  }

  /** After a write of `modelId`'s vectors: asks for a background step if the index needs one. */
  afterWrite(sql: SqlStorage, modelId: string): void {
    if (this.asked) return;
    const rows = vectorCount(sql, modelId);
    if (this.inMemory(sql, rows, this.dimsOf(sql, modelId))) return;
    const gens = this.generations(sql, modelId);
    // A write with an index adds a tail row: the step decides whether the tail is worth packing.
    if (workFor(gens, rows) !== null || (gens.length > 0 && hasBlocks(sql))) this.schedule();
  }

  private dimsOf(sql: SqlStorage, modelId: string): number {
    const latest = this.generations(sql, modelId).at(-1);
    if (latest) return latest.dims;
    const row = sql
      .exec<{ dims: number }>('SELECT dims FROM item_vectors WHERE model_id = ? LIMIT 1', modelId)
      .toArray()[0];
    return row?.dims ?? 0;
  }

  /** Whether `rows` vectors of `dims` may be held as the exact matrix. */
  private inMemory(sql: SqlStorage, rows: number, dims: number): boolean {
    return budgetOf(sql).fits(matrixBytes(rows, dims)) || !hasTable(sql, '_vector_gens');
  }

  /**
   * Top `limit` items by cosine whose scopes pass `accept`, best first (ties: lower `seq`). With
   * `reader` (a search's memoised item reads, search-probe.ts), the IVF path checks its
   * candidates through it, so the items the search reads next are read once. `probes`: how many
   * of the IVF's lists it reads (vector-ivf.ts `nprobeFor`).
   */
  search(
    sql: SqlStorage,
    query: StoredVector,
    limit: number,
    accept: VectorFilter,
    reader?: CandidateReader,
    probes?: ProbeFactor,
  ): ScoredSeq[] {
    const { modelId, values } = query;
    const rows = vectorCount(sql, modelId);
    this.charge(sql);
    if (this.inMemory(sql, rows, values.length)) {
      const hits = this.load(sql, modelId).search(values, limit, accept);
      budgetOf(sql).settle();
      return hits;
    }
    // Too large to hold: whatever matrix was loaded goes.
    if (this.matrix) {
      this.matrix = null;
      this.modelId = null;
    }
    const gens = this.generations(sql, modelId);
    if (workFor(gens, rows) !== null) this.schedule();
    const hits =
      gens.length === 0
        ? streamedScan(sql, modelId, values, limit, accept, null)
        : ivfSearch(sql, modelId, gens, values, limit, accept, reader, probes);
    budgetOf(sql).settle();
    return hits;
  }

  /**
   * One background step of the IVF index (an alarm): trains a generation or moves the next
   * batch of vectors into the newest one, for each model whose vectors outgrew memory. Returns
   * whether more steps are needed.
   */
  maintain(sql: SqlStorage): boolean {
    this.asked = false;
    if (!hasTable(sql, '_vector_gens')) return false;
    let more = false;
    const models = sql
      .exec<{ key: string }>(`SELECT key FROM _counts WHERE key LIKE 'vectors:%' AND n > 0`)
      .toArray()
      .map((r) => r.key.slice('vectors:'.length));
    for (const modelId of models) {
      const rows = vectorCount(sql, modelId);
      if (this.inMemory(sql, rows, this.dimsOf(sql, modelId))) continue;
      // The generations held are kept in step with every write (dead entries included); a
      // step that trains or back-fills reads them again. Reading a million-vector index's
      // centroids after every write batch cost more than packing its tail.
      const gens = this.generations(sql, modelId);
      const work = workFor(gens, rows);
      const latest = gens.at(-1);
      if (work === 'train' || work === 'backfill') {
        if (work === 'train') trainGeneration(sql, modelId, rows, latest);
        else if (latest) backfill(sql, modelId, latest);
        this.gens.delete(modelId);
        this.tails.delete(modelId);
      }
      // The newest generation's tail (writes and backfill add to it) is packed as it fills.
      const newest = this.generations(sql, modelId).at(-1);
      if (newest && hasBlocks(sql)) {
        const tail = this.tails.get(modelId) ?? tailRows(sql, modelId, newest);
        const left = tail >= packAt(newest) ? packTail(sql, modelId, newest) : tail;
        this.tails.set(modelId, left);
        if (left >= packAt(newest)) more = true;
      }
      if (workFor(this.generations(sql, modelId), rows) !== null) more = true;
    }
    return more;
  }
}

/** Bytes of the exact matrix for `rows` vectors of `dims` (vector-matrix.ts `bytes`). */
function matrixBytes(rows: number, dims: number): number {
  return rows * (dims * 6 + 64);
}

/** How many vectors of `modelId` the Context holds (kept by triggers from schema step 12). */
export function vectorCount(sql: SqlStorage, modelId: string): number {
  return countedSinceLastWrite(sql, `vectors ${modelId}`, () =>
    keptCount(
      sql,
      `vectors:${modelId}`,
      () =>
        sql
          .exec<{ n: number }>('SELECT COUNT(*) AS n FROM item_vectors WHERE model_id = ?', modelId)
          .one().n,
    ),
  );
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
  cache.onInsert(sql, seq, vector, scopes, kind, closed);
  cache.afterWrite(sql, vector.modelId);
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
  cache.onInsertMany(sql, rows, false);
  for (const modelId of new Set(rows.map((r) => r.vector.modelId))) cache.afterWrite(sql, modelId);
}

export function deleteVector(sql: SqlStorage, cache: VectorCache, seq: number): void {
  sql.exec('DELETE FROM item_vectors WHERE item_seq = ?', seq);
  cache.onDelete(sql, seq);
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
  reader?: CandidateReader,
  probes?: ProbeFactor,
): VectorHit[] {
  return cache.search(sql, query, limit, accept, reader, probes);
}

/**
 * Items that have no vector for `modelId` (to re-embed after a model change), at most `limit`,
 * by seq. Bounded work at any size: the vectors of other models are found through the
 * `item_vectors_model` index (two key ranges around `modelId`), and items with no vector at all
 * are looked for only when the `_counts` rows say some exist (an embedder that failed on write).
 * A join over every item from the first seq, as before, re-read the whole re-embedded prefix on
 * every batch: quadratic in the Context's size.
 */
export function itemsMissingVectors(
  sql: SqlStorage,
  modelId: string,
  limit: number,
): { seq: number; content: string }[] {
  const other = sql
    .exec<{ seq: number; content: string }>(
      `SELECT i.seq, i.content FROM item_vectors v JOIN items i ON i.seq = v.item_seq
        WHERE v.model_id < ? OR v.model_id > ? LIMIT ?`,
      modelId,
      modelId,
      limit,
    )
    .toArray();
  if (other.length < limit && mayLackVectors(sql)) {
    const seen = new Set(other.map((r) => r.seq));
    for (const row of sql.exec<{ seq: number; content: string }>(
      `SELECT i.seq, i.content FROM items i
        WHERE NOT EXISTS (SELECT 1 FROM item_vectors v WHERE v.item_seq = i.seq)
        ORDER BY i.seq LIMIT ?`,
      limit - other.length,
    ))
      if (!seen.has(row.seq)) other.push(row);
  }
  return other.sort((a, b) => a.seq - b.seq);
}

/** Whether some item may have no vector of any model (always, below schema step 12). */
function mayLackVectors(sql: SqlStorage): boolean {
  if (!hasTable(sql, '_counts')) return true;
  const row = sql
    .exec<{ items: number; vectors: number }>(
      `SELECT (SELECT n FROM _counts WHERE key = 'items') AS items,
              (SELECT COALESCE(SUM(n), 0) FROM _counts WHERE key LIKE 'vectors:%') AS vectors`,
    )
    .one();
  return row.items > row.vectors;
}
