/**
 * An IVF (inverted file) index of one embedding model's vectors, kept in the Context's SQLite
 * (schema/vector-index.ts), for Contexts whose vectors do not fit the object's memory budget.
 *
 * - **Training** (a background step, `trainGeneration`): spherical k-means over a strided sample
 *   of the model's vectors (in two levels from 64 lists, `trainCentroids`) gives `lists`
 *   centroids, about the square root of the vector count.
 *   That is a *generation*; only its centroids are held in memory (lists x dims x 4 bytes: 400 KB
 *   at a million 100-dimension vectors).
 * - **Postings**: each vector sits in the list of its nearest centroid, as a PQ code of its
 *   residual (vector-pq.ts: 50 bytes at 100 dimensions, 192 at 768), or in a generation trained
 *   before schema step 17 as an int8 code (a float32 scale, then one signed byte per dimension:
 *   104 bytes at 100 dimensions, 772 at 768), beside the item's kind and scopes. A list is packed in blocks of
 *   `_vector_blocks` plus a tail of `_vector_postings` rows that writes add (vector-blocks.ts).
 * - **Search**: the query is compared with every centroid and the nearest `nprobe` lists are
 *   read; the rows the query's kinds and lens admit are scored by their codes (filtering first
 *   keeps a narrow lens from filling the candidates with rows it then drops: recall@10 0.922 ->
 *   0.974 for the same lists read), the best candidates' validity is checked, and the shortlist
 *   is rescored with the stored float vectors, so every returned score is the exact cosine.
 *   Fewer admitted hits than asked for: more lists.
 * - **Growth**: new vectors are assigned to the newest generation's nearest list on write. When
 *   the model's vectors reach four times what a generation was trained on, a new generation is
 *   trained and the vectors move to it in seq order (`backfill`), a batch per background step;
 *   until they have, the older generation's lists are probed too, and afterwards it is deleted.
 *   Before the first generation has taken every vector in, the rest are scanned exactly.
 */
import { hasColumn, hasTable } from './schema-facts.ts';
import { SampleRows, trainCentroids } from './vector-kmeans.ts';
import { nearestRow, quantiseInt8, scoreRows } from './vector-rows.ts';
import {
  codebookBytes,
  codebookOf,
  codebookRows,
  pqEncode,
  trainCodebook,
  type Codebook,
} from './vector-pq.ts';

export interface Generation {
  gen: number;
  dims: number;
  lists: number;
  trainedRows: number;
  /** Seqs from `nextSeq` through `endSeq` are not in this generation yet. */
  nextSeq: number;
  endSeq: number;
  /** `lists` unit centroids, packed. */
  centroids: Float32Array;
  /** Entries deletions left in this generation's blocks (schema step 14; 0 before it). */
  dead: number;
  /**
   * Its product-quantisation codebook (vector-pq.ts, schema step 17): entries are PQ codes of
   * their residuals. Null: int8 codes, as every generation trained before the step has.
   */
  codebook: Codebook | null;
  /** Trained before step 17 in a database that has it: retrained (`workFor`) to get PQ codes. */
  int8: boolean;
}

/** Vectors below which no index is trained (an exact scan reads them at least as fast). */
export const IVF_MIN_ROWS = 64;
/** A new generation is trained when the vectors reach this multiple of the last training. */
const RETRAIN_GROWTH = 4;
/** Sample rows per list for training. */
const SAMPLE_PER_LIST = 16;
/** Multiply-adds one background step may spend assigning vectors to lists (about 0.2 s). */
const STEP_WORK = 200_000_000;

export function listsFor(rows: number): number {
  return Math.max(8, Math.min(1024, Math.round(Math.sqrt(rows))));
}

/**
 * Lists a query probes first, as a multiple of sqrt(lists): enough that recall@10 against the
 * exact scan stays above 0.95. Measured on the scale bench's synthetic 768-dimension vectors (hard
 * for IVF: sums of random word vectors), 100k vectors, 316 lists, lens-filtered questions: 1.5
 * sqrt (27 lists) 0.936, 2 sqrt (36) about 0.95, 2.7 sqrt (48) 0.974; 1024 dimensions at 2 sqrt:
 * 0.940 (10k) and 0.944 (100k), 768 at a million 0.954. Wide vectors cluster more loosely, and
 * their PQ codes are a quarter of the int8 ones (vector-pq.ts), so above 256 dimensions a query
 * reads 2.7 sqrt lists, still fewer bytes than 2 sqrt of int8.
 */
export const WIDE_PROBES = 2.7;
/**
 * The same for narrow vectors (the local model's 100) in a large index. Below 256 lists a
 * question probes 2 sqrt(lists), as wide ones did before PQ codes: a few thousand codes, and
 * clustered synthetic vectors need them (32 dimensions, 12 clusters, 55 lists: 0.885 at 1.5
 * against 0.9 or more at 2, `ivf-lists.test.ts`). From 256 lists (about 65,000 vectors) on, where
 * the codes scored are most of a vector question's time (docs/scale.md), 1.5 sqrt: the local
 * model's sentence vectors cluster far more tightly than those. At a million of them (647 lists;
 * `npm run bench -- scale-ann`, the scale bench's 50 questions with their lenses) 2 sqrt (51
 * lists) 0.992, 1.5 sqrt (39) 0.978, a quarter fewer codes scored.
 */
export const NARROW_PROBES = 1.5;
/**
 * The same for the vector arm of a fused mode (`hybrid`, `hybrid_graph`) in a large narrow index.
 * That arm is one of four or five lists fused, 100 deep, and its items' fused ranks move little
 * when a few of its hundred are missed: at a million facts (the scale bench's 50 questions,
 * `npm run bench -- scale-ann --fused`) the `hybrid` top 10 shares 0.982 of its items with the
 * top 10 when every list is probed at 1.5 sqrt, 0.972 at 1 sqrt, which reads a third fewer codes
 * (in process, `hybrid` p50 35.5 -> 29.5 ms). The arm's own recall@100: 0.953 and 0.922.
 */
export const FUSED_NARROW_PROBES = 1;
/** Lists from which a narrow index probes `NARROW_PROBES` sqrt(lists). */
const NARROW_FROM_LISTS = 256;

/**
 * How many lists a search probes first: `factor` sqrt(lists) when given as a number; `'fused'`,
 * a fused mode's vector arm, and absent, a `vector` search, by the index's width and size.
 */
export type ProbeFactor = number | 'fused';

export function nprobeFor(lists: number, dims: number, factor?: ProbeFactor): number {
  // A small index is read whole: exact, and no slower than the scan it replaces.
  if (lists <= 16) return lists;
  const large = lists >= NARROW_FROM_LISTS;
  const probes =
    typeof factor === 'number'
      ? factor
      : dims > 256
        ? WIDE_PROBES
        : !large
          ? 2
          : factor === 'fused'
            ? FUSED_NARROW_PROBES
            : NARROW_PROBES;
  return Math.min(lists, Math.max(8, Math.ceil(Math.sqrt(lists) * probes)));
}

export function generationBytes(g: Generation): number {
  return g.centroids.byteLength + (g.codebook ? codebookBytes(g.codebook) : 0) + 128;
}

// ---- codes ----

/** int8 code of `values`: float32 scale (max |v| / 127), then one signed byte per dimension. */
export function encode(values: Float32Array): Uint8Array {
  const out = new Uint8Array(4 + values.length);
  const scale = quantiseInt8(values, values.length, new Int8Array(out.buffer, 4), 0);
  new DataView(out.buffer).setFloat32(0, scale, true);
  return out;
}

/** The approximate dot product of `query` with a code. */
export function codeDot(query: Float32Array, code: ArrayBuffer): number {
  const view = new DataView(code);
  const scale = view.getFloat32(0, true);
  const bytes = new Int8Array(code, 4);
  const n = Math.min(query.length, bytes.length);
  let dot = 0;
  for (let i = 0; i < n; i++) dot += (query[i] as number) * (bytes[i] as number);
  return dot * scale;
}

// ---- geometry ----

/** The list whose centroid is nearest (highest dot product) to `v`. */
export function nearestList(g: Generation, v: Float32Array): number {
  return nearestRow(v, 0, g.centroids, g.lists, g.dims).row;
}

/** The `n` lists nearest to `query`, nearest first, with their centroids' scores. */
export function nearestLists(
  g: Generation,
  query: Float32Array,
  n: number,
): { list: number; score: number }[] {
  const scores = new Float64Array(g.lists);
  scoreRows(query, 0, g.centroids, g.lists, g.dims, scores);
  return Array.from(scores, (score, list) => ({ list, score }))
    .sort((a, b) => b.score - a.score || a.list - b.list)
    .slice(0, n);
}

// ---- SQLite ----

interface GenRow {
  gen: number;
  dead: number;
  dims: number;
  lists: number;
  trained_rows: number;
  next_seq: number;
  end_seq: number;
  codebook: ArrayBuffer | null;
  [column: string]: SqlStorageValue;
}

/** The model's generations, oldest first, with their centroids. */
export function loadGenerations(sql: SqlStorage, modelId: string): Generation[] {
  const dead = hasBlocks(sql) ? 'dead' : '0 AS dead';
  const pq = hasCodebooks(sql);
  const codebook = pq ? 'codebook' : 'NULL AS codebook';
  const rows = sql
    .exec<GenRow>(
      `SELECT gen, dims, lists, trained_rows, next_seq, end_seq, ${dead}, ${codebook}
         FROM _vector_gens WHERE model_id = ? ORDER BY gen`,
      modelId,
    )
    .toArray();
  return rows.map((row) => {
    const centroids = new Float32Array(row.lists * row.dims);
    for (const c of sql.exec<{ list: number; centroid: ArrayBuffer }>(
      'SELECT list, centroid FROM _vector_lists WHERE model_id = ? AND gen = ?',
      modelId,
      row.gen,
    ))
      centroids.set(new Float32Array(c.centroid), c.list * row.dims);
    return {
      gen: row.gen,
      dims: row.dims,
      lists: row.lists,
      trainedRows: row.trained_rows,
      nextSeq: row.next_seq,
      endSeq: row.end_seq,
      centroids,
      dead: row.dead,
      codebook: row.codebook === null ? null : codebookOf(row.codebook, row.dims),
      int8: pq && row.codebook === null,
    };
  });
}

/** Whether generations carry a PQ codebook (schema step 17). */
export function hasCodebooks(sql: SqlStorage): boolean {
  return hasColumn(sql, '_vector_gens', 'codebook');
}

/**
 * Whether the lists are packed in blocks (schema step 14). Before it, every entry is a posting
 * row, as the tail is after it.
 */
export function hasBlocks(sql: SqlStorage): boolean {
  return hasTable(sql, '_vector_blocks');
}

/** An item's vector, with what the lists keep beside its code. */
export interface PostingEntry {
  seq: number;
  kind: string;
  /** The item's scopes as stored in `items` (a JSON array). */
  scopes: string;
  values: Float32Array;
}

/** Entries written by one statement: their codes stay far below a bound BLOB's 2 MB. */
const POSTINGS_PER_STATEMENT = 500;

/**
 * Writes each entry's code into the tail of the list of `g` it is nearest to (replacing any tail
 * row of its seq); the background step packs the tail into blocks (vector-blocks.ts). Two
 * statements for up to 500 entries, the codes concatenated into one BLOB and cut apart with
 * `substr`: a statement per entry and per step cost about 84 us a fact at a million facts.
 */
export function addPostings(
  sql: SqlStorage,
  modelId: string,
  g: Generation,
  entries: readonly PostingEntry[],
): void {
  for (let start = 0; start < entries.length; start += POSTINGS_PER_STATEMENT) {
    const chunk = entries.slice(start, start + POSTINGS_PER_STATEMENT);
    const codes = chunk.map(({ values }) => {
      const list = nearestList(g, values);
      return {
        list,
        code: g.codebook ? pqEncode(g.codebook, values, g.centroids, list) : encode(values),
      };
    });
    const blob = new Uint8Array(codes.reduce((n, c) => n + c.code.byteLength, 0));
    const meta: [number, number, string, string, number, number][] = [];
    let offset = 0;
    chunk.forEach((entry, i) => {
      const { list, code } = codes[i] as { list: number; code: Uint8Array };
      blob.set(code, offset);
      meta.push([entry.seq, list, entry.kind, entry.scopes, offset + 1, code.byteLength]);
      offset += code.byteLength;
    });
    const json = JSON.stringify(meta);
    sql.exec(
      'DELETE FROM _vector_postings WHERE item_seq IN (SELECT value ->> 0 FROM json_each(?))',
      json,
    );
    sql.exec(
      `INSERT INTO _vector_postings (model_id, gen, list, item_seq, kind, scopes, code)
       SELECT ?, ?, value ->> 1, value ->> 0, value ->> 2, value ->> 3,
              substr(?, value ->> 4, value ->> 5)
         FROM json_each(?)`,
      modelId,
      g.gen,
      blob.buffer,
      json,
    );
  }
}

/**
 * Removes `seq`'s tail row. An entry already packed stays in its block until the lists are
 * rewritten (candidates are checked against `items` and rescored from `item_vectors`, so it is
 * never returned). For a deleted item (`deleted`) it is counted as dead in every model's newest
 * generation, and `true` says so; a vector replaced by another model's is not counted: its
 * model's lists are dropped whole once the re-embedding is done (`dropOtherModels`).
 */
export function removePosting(sql: SqlStorage, seq: number, deleted: boolean): boolean {
  const tail = sql
    .exec('DELETE FROM _vector_postings WHERE item_seq = ? RETURNING item_seq', seq)
    .toArray().length;
  if (!deleted || tail > 0 || !hasBlocks(sql)) return false;
  sql.exec(`UPDATE _vector_gens SET dead = dead + 1
             WHERE (model_id, gen) IN (SELECT model_id, MAX(gen) FROM _vector_gens GROUP BY model_id)`);
  return true;
}

/** What a background step should do next for `modelId`, given its vector count. */
export type IvfWork = 'train' | 'backfill' | null;

/** Dead block entries, as a share of the vectors, from which the lists are rewritten. */
const DEAD_SHARE = 0.25;

export function workFor(gens: readonly Generation[], rows: number): IvfWork {
  const latest = gens[gens.length - 1];
  if (!latest) return rows >= IVF_MIN_ROWS ? 'train' : null;
  if (latest.nextSeq <= latest.endSeq) return 'backfill';
  // An index of int8 codes (trained before schema step 17) is retrained once to PQ codes: a
  // query then reads a half or a quarter of the bytes (vector-pq.ts). Until the new generation
  // has every vector, both are probed, as after any retraining.
  if (latest.int8 && rows >= IVF_MIN_ROWS) return 'train';
  if (rows >= RETRAIN_GROWTH * latest.trainedRows && listsFor(rows) > latest.lists) return 'train';
  // A Context that deletes more than it grows: a new generation rewrites the lists without them.
  if (rows >= IVF_MIN_ROWS && latest.dead > DEAD_SHARE * Math.max(rows, latest.trainedRows))
    return 'train';
  return null;
}

/**
 * Trains a new generation from a strided sample of the model's vectors. The new generation
 * takes in every vector up to the highest seq now (by `backfill`); vectors written from here on
 * go to it directly. With `withCodebook` (whenever the schema has step 17) its entries are PQ
 * codes; without, int8 codes, as before the step (kept for the databases still holding such a
 * generation, which the tests build this way).
 */
export function trainGeneration(
  sql: SqlStorage,
  modelId: string,
  rows: number,
  previous: Generation | undefined,
  withCodebook = hasCodebooks(sql),
): void {
  const lists = listsFor(rows);
  const want = Math.min(rows, lists * SAMPLE_PER_LIST);
  const stride = Math.max(1, Math.floor(rows / want));
  const bounds = sql
    .exec<{ lo: number | null; hi: number | null; dims: number | null }>(
      'SELECT MIN(item_seq) AS lo, MAX(item_seq) AS hi, MAX(dims) AS dims FROM item_vectors WHERE model_id = ?',
      modelId,
    )
    .one();
  if (bounds.lo === null || bounds.hi === null || bounds.dims === null) return;
  const dims = bounds.dims;
  const sample = new SampleRows(want, dims);
  let i = 0;
  // Read to the end (the rows the strided sample can take, at most), never left half read: an
  // open cursor keeps its read snapshot and holds WAL checkpoints back (fts.ts `ranked`).
  for (const row of sql.exec<{ vector: ArrayBuffer; dims: number }>(
    'SELECT vector, dims FROM item_vectors WHERE model_id = ? ORDER BY item_seq LIMIT ?',
    modelId,
    want * stride,
  )) {
    if (sample.rows >= want || i++ % stride !== 0 || row.dims !== dims) continue;
    sample.push(new Float32Array(row.vector));
  }
  const taken = sample.rows;
  const assigned = new Int32Array(taken);
  const centroids = trainCentroids(sample, taken, dims, lists, assigned);
  const gen = (previous?.gen ?? 0) + 1;
  const k = centroids.length / dims;
  sql.exec(
    `INSERT INTO _vector_gens (model_id, gen, dims, lists, trained_rows, next_seq, end_seq)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    modelId,
    gen,
    dims,
    k,
    rows,
    bounds.lo,
    bounds.hi,
  );
  if (withCodebook) {
    // The residuals from their lists' centroids of the sample rows that train the codebook
    // (vector-pq.ts: 2,048 of them), and only those: 6 MB at 768 dimensions.
    const used = codebookRows(taken);
    const residuals = new Float32Array(used.length * dims);
    used.forEach((r, at) => {
      const v = sample.row(r);
      const c = (assigned[r] as number) * dims;
      for (let i = 0; i < dims; i++)
        residuals[at * dims + i] = (v[i] as number) - (centroids[c + i] as number);
    });
    const book = trainCodebook(residuals, used.length, dims);
    sql.exec(
      'UPDATE _vector_gens SET codebook = ? WHERE model_id = ? AND gen = ?',
      book.points.buffer,
      modelId,
      gen,
    );
  }
  for (let l = 0; l < k; l++)
    sql.exec(
      'INSERT INTO _vector_lists (model_id, gen, list, centroid) VALUES (?, ?, ?, ?)',
      modelId,
      gen,
      l,
      centroids.slice(l * dims, (l + 1) * dims).buffer,
    );
}

/**
 * Moves the next batch of vectors (by seq) into the newest generation; when it has them all,
 * older generations are deleted. Returns whether more remains.
 */
export function backfill(sql: SqlStorage, modelId: string, g: Generation): boolean {
  const batch = Math.max(256, Math.min(20_000, Math.floor(STEP_WORK / (g.lists * g.dims))));
  const rows = sql
    .exec<{ item_seq: number; vector: ArrayBuffer; dims: number; kind: string; scopes: string }>(
      `SELECT v.item_seq, v.vector, v.dims, i.kind, i.scopes
         FROM item_vectors v JOIN items i ON i.seq = v.item_seq
        WHERE v.item_seq >= ? AND v.item_seq <= ? AND v.model_id = ? ORDER BY v.item_seq LIMIT ?`,
      g.nextSeq,
      g.endSeq,
      modelId,
      batch,
    )
    .toArray();
  // Into the tail, like a write: packing a step's few thousand vectors straight into blocks
  // rewrote every list's last block each step (a million-vector index's backfill: about 2 GB of
  // block writes, and ingest fell to 300 facts/s while it ran). The tail is packed as it fills.
  const entries: PostingEntry[] = [];
  for (const row of rows) {
    if (row.dims !== g.dims) removePosting(sql, row.item_seq, false);
    else
      entries.push({
        seq: row.item_seq,
        kind: row.kind,
        scopes: row.scopes,
        values: new Float32Array(row.vector),
      });
  }
  addPostings(sql, modelId, g, entries);
  const last = rows[rows.length - 1];
  const next = rows.length < batch || !last ? g.endSeq + 1 : last.item_seq + 1;
  sql.exec(
    'UPDATE _vector_gens SET next_seq = ? WHERE model_id = ? AND gen = ?',
    next,
    modelId,
    g.gen,
  );
  if (next <= g.endSeq) return true;
  sql.exec('DELETE FROM _vector_lists WHERE model_id = ? AND gen < ?', modelId, g.gen);
  sql.exec('DELETE FROM _vector_gens WHERE model_id = ? AND gen < ?', modelId, g.gen);
  sql.exec('DELETE FROM _vector_postings WHERE model_id = ? AND gen < ?', modelId, g.gen);
  if (hasBlocks(sql))
    sql.exec('DELETE FROM _vector_blocks WHERE model_id = ? AND gen < ?', modelId, g.gen);
  return false;
}

/** Drops every generation of models other than `keep` (their vectors were re-embedded). */
export function dropOtherModels(sql: SqlStorage, keep: string): void {
  sql.exec('DELETE FROM _vector_lists WHERE model_id <> ?', keep);
  sql.exec('DELETE FROM _vector_gens WHERE model_id <> ?', keep);
  sql.exec('DELETE FROM _vector_postings WHERE model_id <> ?', keep);
  if (hasBlocks(sql)) sql.exec('DELETE FROM _vector_blocks WHERE model_id <> ?', keep);
}
