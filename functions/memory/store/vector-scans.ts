/**
 * The two vector searches that read SQLite instead of the in-memory matrix (vectors.ts chooses):
 * the streamed exact scan and the IVF probe (vector-ivf.ts), both with the exact scan's filter and
 * scores. Only the best hits are held, whatever the Context's size.
 */
import { hasValidity } from './validity.ts';
import { filterRows, readBlocks, type Block } from './vector-blocks.ts';
import {
  codeDot,
  hasBlocks,
  nearestLists,
  nprobeFor,
  type Generation,
  type ProbeFactor,
} from './vector-ivf.ts';
import { memoFilter, TopK, type ScoredSeq, type VectorFilter } from './vector-matrix.ts';
import { dotAt } from './vector-rows.ts';
import { pqDot, pqTable } from './vector-pq.ts';

interface FilterRow {
  seq: number;
  scopes: string;
  kind: string;
  closed: number;
  [column: string]: SqlStorageValue;
}

function closedColumn(sql: SqlStorage, alias: string): string {
  return hasValidity(sql) ? `${alias}valid_until IS NOT NULL` : '0';
}

/**
 * The exact scan read from SQLite row by row: only the best `limit` hits are held. `range`
 * limits it to seqs in [lo, hi] (the vectors an IVF generation has not taken in yet).
 */
export function streamedScan(
  sql: SqlStorage,
  modelId: string,
  query: Float32Array,
  limit: number,
  accept: VectorFilter,
  range: readonly [number, number] | null,
): ScoredSeq[] {
  const admits = memoFilter(accept);
  const top = new TopK(limit);
  const where = range === null ? '' : 'AND v.item_seq >= ? AND v.item_seq <= ?';
  const rows = sql.exec<FilterRow & { vector: ArrayBuffer }>(
    `SELECT v.item_seq AS seq, v.vector, i.scopes, i.kind, ${closedColumn(sql, 'i.')} AS closed
       FROM item_vectors v JOIN items i ON i.seq = v.item_seq
      WHERE v.model_id = ? ${where}`,
    modelId,
    ...(range ?? []),
  );
  for (const row of rows) {
    if (!admits(row.scopes, row.kind, row.closed === 1)) continue;
    const values = new Float32Array(row.vector, 0, row.vector.byteLength >>> 2);
    top.offer(row.seq, dotAt(query, values, 0, values.length));
  }
  return top.hits;
}

/**
 * A search's memoised reads of its candidates (search-probe.ts `Probe`): the IVF path checks
 * validity through it when given one, so the rows it reads are the ones the search reads next
 * (the local model's re-ranking, soft matching, priors), read once.
 */
export interface CandidateReader {
  (seq: number): { scopes: readonly string[]; kind: string; closed: boolean } | null;
  prefetch(seqs: readonly number[]): void;
}

/** Candidates kept per limit before filtering, and rescored after. */
const CANDIDATES_PER_HIT = 4;
const CANDIDATE_SLACK = 64;
const RESCORE_SLACK = 16;
/**
 * Candidates rescored at least when a generation has PQ codes, which rank coarser than int8: a
 * million local-model vectors' exact top 10 is within the codes' best 36 for 0.963 of its items,
 * within the best 104 for all (vector-pq.ts); a `limit` of 10 rescores its 104 candidates.
 */
const PQ_RESCORE_MIN = 128;

/**
 * Whether a block entry's filter id may pass `admits` (open or closed: validity, which
 * supersession changes, is read for the candidates), decided once per id and query: `learn`
 * reads the ids a set of blocks has that are not decided yet, in one statement.
 */
class FilterIds {
  /**
   * Per id: 0 not decided, 1 admitted, 2 refused. The scoring loop reads `allowed` (ids are a
   * table's small row ids); a typed array, where a Map's look-up per block entry (about 25,000 a
   * question at a million facts) cost a millisecond.
   */
  allowed = new Uint8Array(64);

  private readonly sql: SqlStorage;
  private readonly admits: (scopes: string, kind: string, closed: boolean) => boolean;

  constructor(sql: SqlStorage, admits: (scopes: string, kind: string, closed: boolean) => boolean) {
    this.sql = sql;
    this.admits = admits;
  }

  learn(blocks: readonly Block[]): void {
    const unknown = new Set<number>();
    let allowed = this.allowed;
    for (const block of blocks) {
      const filters = block.filters;
      // Entries of a list mostly share a few filter ids: a run of one id is looked at once.
      let last = -1;
      for (let e = 0; e < block.n; e++) {
        const id = filters[e] as number;
        if (id === last) continue;
        last = id;
        if (id >= allowed.length || allowed[id] === 0) unknown.add(id);
      }
    }
    if (unknown.size === 0) return;
    const rows = filterRows(this.sql, [...unknown]);
    for (const id of unknown) {
      const row = rows.get(id);
      const admitted =
        row !== undefined &&
        (this.admits(row.scopes, row.kind, false) || this.admits(row.scopes, row.kind, true));
      if (id >= allowed.length) {
        const grown = new Uint8Array(Math.max(id + 1, allowed.length * 2));
        grown.set(allowed);
        allowed = grown;
      }
      allowed[id] = admitted ? 1 : 2;
    }
    this.allowed = allowed;
  }
}

/** Offers every admitted entry of the probed lists of `g`: its blocks, then its tail rows. */
function scoreLists(
  sql: SqlStorage,
  modelId: string,
  g: Generation,
  probed: readonly { list: number; score: number }[],
  query: Float32Array,
  admits: (scopes: string, kind: string, closed: boolean) => boolean,
  filterIds: FilterIds | null,
  candidates: TopK,
): void {
  const dims = g.dims;
  const book = g.codebook;
  const lists = probed.map((p) => p.list);
  // With PQ codes an entry scores its list's centroid plus its residual's lookups.
  const table = book ? pqTable(book, query) : null;
  const centroidScores = new Map(probed.map((p) => [p.list, p.score]));
  if (filterIds) {
    const n = Math.min(query.length, dims);
    for (const blocks of readBlocks(sql, modelId, g, lists)) {
      filterIds.learn(blocks);
      const allowed = filterIds.allowed;
      for (const block of blocks) {
        const filters = block.filters;
        if (book && table) {
          // pqDot inlined: at a million facts a question scores about 85,000 codes here.
          const m = book.subspaces;
          const base = centroidScores.get(block.list) ?? 0;
          const { bytes, seqs } = block;
          for (let e = 0, at = 0; e < block.n; e++, at += m) {
            if (allowed[filters[e] as number] !== 1) continue;
            let dot = 0;
            for (let j = 0; j < m; j++)
              dot += table[(j << 8) | (bytes[at + j] as number)] as number;
            candidates.offer(seqs[e] as number, base + dot);
          }
          continue;
        }
        for (let e = 0; e < block.n; e++) {
          if (allowed[filters[e] as number] !== 1) continue;
          const at = e * dims;
          let dot = 0;
          for (let i = 0; i < n; i++) dot += (query[i] as number) * (block.codes[at + i] as number);
          candidates.offer(block.seqs[e] as number, dot * (block.scales[e] as number));
        }
      }
    }
  }
  for (const row of sql.exec<{
    list: number;
    item_seq: number;
    kind: string;
    scopes: string;
    code: ArrayBuffer;
  }>(
    `SELECT list, item_seq, kind, scopes, code FROM _vector_postings
      WHERE model_id = ? AND gen = ? AND list IN (SELECT value FROM json_each(?))`,
    modelId,
    g.gen,
    JSON.stringify(lists),
  )) {
    // Kinds and lens before scoring (an item's are fixed); validity, which supersession
    // changes, is read for the candidates.
    if (!admits(row.scopes, row.kind, false) && !admits(row.scopes, row.kind, true)) continue;
    const score =
      book && table
        ? (centroidScores.get(row.list) ?? 0) +
          pqDot(table, new Uint8Array(row.code), 0, Math.min(book.subspaces, row.code.byteLength))
        : codeDot(query, row.code);
    candidates.offer(row.item_seq, score);
  }
}

/** IVF search (vector-ivf.ts): probe, score codes, filter, rescore exactly. */
export function ivfSearch(
  sql: SqlStorage,
  modelId: string,
  gens: readonly Generation[],
  query: Float32Array,
  limit: number,
  accept: VectorFilter,
  reader?: CandidateReader,
  /** Lists probed first (vector-ivf.ts `nprobeFor`). */
  probes?: ProbeFactor,
): ScoredSeq[] {
  const maxLists = Math.max(...gens.map((g) => g.lists));
  const dims = Math.max(...gens.map((g) => g.dims));
  const first = gens[0];
  // Before the first generation has taken every vector in, the rest are scanned exactly.
  const pending =
    gens.length === 1 && first && first.nextSeq <= first.endSeq
      ? streamedScan(sql, modelId, query, limit, accept, [first.nextSeq, first.endSeq])
      : [];
  const admits = memoFilter(accept);
  const filterIds = hasBlocks(sql) ? new FilterIds(sql, admits) : null;
  const closed = closedColumn(sql, '');
  for (let factor = 1; ; factor *= 4) {
    const probed = Math.min(maxLists, nprobeFor(maxLists, dims, probes) * factor);
    const candidates = new TopK((limit * CANDIDATES_PER_HIT + CANDIDATE_SLACK) * factor);
    for (const g of gens) {
      const lists = nearestLists(g, query, Math.min(g.lists, probed));
      scoreLists(sql, modelId, g, lists, query, admits, filterIds, candidates);
    }
    // A seq can be offered twice: from a block and a tail row written after a re-embedding.
    const order = [...new Set(candidates.hits.map((h) => h.seq))];
    // Validity read best first, only until the shortlist is full: lens and kind passed the
    // filter ids already, so nearly every candidate is admitted and the first read suffices
    // (at a million facts, 430 of the 860 rows a `vector` question used to read).
    const coarse = gens.some((g) => g.codebook !== null);
    // A fused mode's arm over narrow vectors has only its best `limit` and a slack rescored: its
    // order below the first few dozen moves fused ranks little (a million facts, the scale
    // bench's questions: `hybrid`'s top 10 keeps 0.994 of its items; `scale-ann --fused`).
    const fused = probes === 'fused' && dims <= 256;
    const rescored = Math.max(limit * (fused ? 1 : 2) + RESCORE_SLACK, coarse ? PQ_RESCORE_MIN : 0);
    const shortlist: number[] = [];
    for (let from = 0; from < order.length && shortlist.length < rescored;) {
      const part = order.slice(from, from + rescored - shortlist.length + RESCORE_SLACK);
      from += part.length;
      if (reader) {
        reader.prefetch(part);
        for (const seq of part) {
          const item = reader(seq);
          if (item && accept(item.scopes, item.kind, item.closed)) shortlist.push(seq);
        }
        continue;
      }
      const admitted = new Set<number>();
      for (const row of sql.exec<FilterRow>(
        `SELECT seq, scopes, kind, ${closed} AS closed FROM items
          WHERE seq IN (SELECT value FROM json_each(?))`,
        JSON.stringify(part),
      ))
        if (admits(row.scopes, row.kind, row.closed === 1)) admitted.add(row.seq);
      for (const seq of part) if (admitted.has(seq)) shortlist.push(seq);
    }
    if (shortlist.length < limit && probed < maxLists) continue;
    const top = new TopK(limit);
    for (const row of sql.exec<{ item_seq: number; vector: ArrayBuffer }>(
      `SELECT item_seq, vector FROM item_vectors
        WHERE item_seq IN (SELECT value FROM json_each(?)) AND model_id = ?`,
      JSON.stringify(shortlist.slice(0, rescored)),
      modelId,
    )) {
      const values = new Float32Array(row.vector, 0, row.vector.byteLength >>> 2);
      top.offer(row.item_seq, dotAt(query, values, 0, values.length));
    }
    for (const hit of pending) top.offer(hit.seq, hit.score);
    return top.hits;
  }
}
