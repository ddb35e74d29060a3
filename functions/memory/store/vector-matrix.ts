/**
 * One embedding model's vectors packed row after row in a single Float32Array, with what a vector
 * search filters on (scopes, kind, closed) in arrays beside it. A scan is one tight loop over
 * contiguous memory: no per-row object, Map entry or BLOB decode at query time.
 *
 * A row that is mostly zeros (hashed n-gram embeddings such as `local-hash-v1` fill about a fifth
 * of their dimensions) is stored sparse in the same slot: its non-zero values first, their
 * indices in a parallel Uint16Array. Its dot product skips only terms whose row value is zero,
 * which add nothing to a finite sum (x + 0 = x, and a sum that starts at +0 never becomes -0),
 * so scores are bit for bit those of the dense loop; a query with a non-finite value, where
 * 0 × Infinity would matter, takes the dense walk.
 */

import { dotAt, dotFour } from './vector-rows.ts';

export type VectorFilter = (scopes: readonly string[], kind: string, closed: boolean) => boolean;

/**
 * `accept` asked once per distinct (scopes text, kind, closed), for readers that get a row's
 * scopes as JSON text (the streamed scans, the entity browse): scopes strings repeat.
 */
export function memoFilter(
  accept: VectorFilter,
): (scopes: string, kind: string, closed: boolean) => boolean {
  const decided = new Map<string, boolean>();
  return (scopes, kind, closed) => {
    const key = `${closed ? 1 : 0}${kind}\u0000${scopes}`;
    let yes = decided.get(key);
    if (yes === undefined) {
      yes = accept(JSON.parse(scopes) as string[], kind, closed);
      decided.set(key, yes);
    }
    return yes;
  };
}

export interface ScoredSeq {
  seq: number;
  score: number;
}

/**
 * (`score`, `seq`) ranks before `b`: higher score first, then lower `seq` (a total order: seqs are
 * unique; a NaN score ranks before nothing). Takes the first side as numbers, so a candidate is
 * compared before an object is made for it.
 */
function before(score: number, seq: number, b: ScoredSeq): boolean {
  return score > b.score || (score === b.score && seq < b.seq);
}

/**
 * The best `limit` candidates offered, best first: the same list as sorting every candidate by
 * (score desc, seq asc) and keeping the first `limit`, without sorting them all.
 */
export class TopK {
  readonly hits: ScoredSeq[] = [];
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  offer(seq: number, score: number): void {
    if (this.limit <= 0) return;
    const hits = this.hits;
    const worst = hits[hits.length - 1];
    // Most rows of a scan lose to the worst hit kept: refused before anything is allocated.
    if (hits.length >= this.limit && worst !== undefined && !before(score, seq, worst)) return;
    const hit = { seq, score };
    let lo = 0;
    let hi = hits.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const other = hits[mid];
      if (other !== undefined && before(other.score, other.seq, hit)) lo = mid + 1;
      else hi = mid;
    }
    hits.splice(lo, 0, hit);
    if (hits.length > this.limit) hits.pop();
  }
}

interface OddRow {
  values: Float32Array;
  scopes: string[];
  kind: string;
  closed: boolean;
}

/** The same sum for a sparse row: its non-zero terms, in ascending index order. */
function sparseDotAt(
  query: Float32Array,
  data: Float32Array,
  index: Uint16Array,
  base: number,
  nonZero: number,
): number {
  const n = query.length;
  let dot = 0;
  for (let j = base; j < base + nonZero; j++) {
    const i = index[j] as number;
    if (i >= n) break;
    dot += (query[i] as number) * (data[j] as number);
  }
  return dot;
}

/** A sparse row summed over every index up to the shorter length, zeros included (dense order). */
function sparseDenseDotAt(
  query: Float32Array,
  data: Float32Array,
  index: Uint16Array,
  base: number,
  nonZero: number,
  dims: number,
): number {
  const n = Math.min(query.length, dims);
  let dot = 0;
  let j = base;
  for (let i = 0; i < n; i++) {
    const value = j < base + nonZero && index[j] === i ? (data[j++] as number) : 0;
    dot += (query[i] as number) * value;
  }
  return dot;
}

function allFinite(values: Float32Array): boolean {
  for (const v of values) if (!Number.isFinite(v)) return false;
  return true;
}

/** Rows with at most this share of non-zero values are stored sparse. */
const SPARSE_SHARE = 0.5;

export class VectorMatrix {
  /** Dimensions of every packed row (fixed by the first vector stored). */
  private dims = 0;
  private data = new Float32Array(0);
  /** Per sparse row, the indices of its values (same offsets as `data`); unused for dense rows. */
  private index = new Uint16Array(0);
  /** Per row: how many values a sparse row stores, or -1 for a dense row. */
  private readonly nonZero: number[] = [];
  private readonly seqs: number[] = [];
  private readonly scopes: string[][] = [];
  private readonly kinds: string[] = [];
  private readonly closed: boolean[] = [];
  private readonly rowOf = new Map<number, number>();
  /** One array per distinct scope set, so a search decides each set once. */
  private readonly interned = new Map<string, string[]>();
  /** Vectors whose length differs from `dims` (not expected within one model id), unpacked. */
  private readonly odd = new Map<number, OddRow>();

  get size(): number {
    return this.seqs.length + this.odd.size;
  }

  /** Bytes held: the packed arrays exactly, per-row arrays and map entries estimated. */
  get bytes(): number {
    return (
      this.data.byteLength + this.index.byteLength + this.seqs.length * 64 + this.odd.size * 128
    );
  }

  private intern(scopes: string[]): string[] {
    const key = JSON.stringify(scopes);
    const shared = this.interned.get(key);
    if (shared) return shared;
    this.interned.set(key, scopes);
    return scopes;
  }

  /** Adds or replaces the vector of `seq`. */
  set(seq: number, values: Float32Array, scopes: string[], kind: string, closed: boolean): void {
    this.delete(seq);
    const shared = this.intern(scopes);
    if (this.dims === 0) this.dims = values.length;
    if (values.length !== this.dims || this.dims === 0) {
      this.odd.set(seq, { values, scopes: shared, kind, closed });
      return;
    }
    const row = this.seqs.length;
    if ((row + 1) * this.dims > this.data.length) {
      const rows = Math.max(256, row * 2);
      const grown = new Float32Array(rows * this.dims);
      grown.set(this.data);
      this.data = grown;
      const index = new Uint16Array(rows * this.dims);
      index.set(this.index);
      this.index = index;
    }
    const base = row * this.dims;
    let count = 0;
    for (const v of values) if (v !== 0) count++;
    // Indices must fit a Uint16Array; wider vectors stay dense.
    if (count <= SPARSE_SHARE * this.dims && this.dims <= 65_536) {
      let j = base;
      values.forEach((v, i) => {
        if (v === 0) return;
        this.data[j] = v;
        this.index[j++] = i;
      });
      this.nonZero.push(count);
    } else {
      this.data.set(values, base);
      this.nonZero.push(-1);
    }
    this.seqs.push(seq);
    this.scopes.push(shared);
    this.kinds.push(kind);
    this.closed.push(closed);
    this.rowOf.set(seq, row);
  }

  close(seq: number): void {
    const row = this.rowOf.get(seq);
    if (row !== undefined) this.closed[row] = true;
    const odd = this.odd.get(seq);
    if (odd) odd.closed = true;
  }

  /** Removes `seq`, moving the last row into its place (rankings never depend on row order). */
  delete(seq: number): void {
    this.odd.delete(seq);
    const row = this.rowOf.get(seq);
    if (row === undefined) return;
    this.rowOf.delete(seq);
    const last = this.seqs.length - 1;
    if (row !== last) {
      const moved = this.seqs[last] as number;
      this.data.copyWithin(row * this.dims, last * this.dims, (last + 1) * this.dims);
      this.index.copyWithin(row * this.dims, last * this.dims, (last + 1) * this.dims);
      this.nonZero[row] = this.nonZero[last] as number;
      this.seqs[row] = moved;
      this.scopes[row] = this.scopes[last] as string[];
      this.kinds[row] = this.kinds[last] as string;
      this.closed[row] = this.closed[last] as boolean;
      this.rowOf.set(moved, row);
    }
    this.seqs.pop();
    this.nonZero.pop();
    this.scopes.pop();
    this.kinds.pop();
    this.closed.pop();
  }

  /**
   * The `limit` best rows by dot product with `query` among those `accept` admits, best first
   * (ties by lower `seq`). `accept` must depend only on its arguments: it is asked once per
   * distinct (scope set, kind, closed).
   */
  search(query: Float32Array, limit: number, accept: VectorFilter): ScoredSeq[] {
    const decided = new Map<string[], Map<string, boolean>>();
    // Rows mostly share their scope set, kind and state with the row before: that answer first.
    let last: { scopes: string[]; kind: string; closed: boolean; yes: boolean } | null = null;
    const admits = (scopes: string[], kind: string, closed: boolean): boolean => {
      if (last !== null && last.scopes === scopes && last.kind === kind && last.closed === closed)
        return last.yes;
      let byKind = decided.get(scopes);
      if (!byKind) {
        byKind = new Map();
        decided.set(scopes, byKind);
      }
      const key = closed ? `1${kind}` : `0${kind}`;
      let yes = byKind.get(key);
      if (yes === undefined) {
        yes = accept(scopes, kind, closed);
        byKind.set(key, yes);
      }
      last = { scopes, kind, closed, yes };
      return yes;
    };
    const top = new TopK(limit);
    const { data, index, nonZero, dims, seqs, scopes, kinds, closed } = this;
    const finite = allFinite(query);
    const n = Math.min(query.length, dims);
    // Dense rows are scored four at a time (vector-rows.ts `dotFour`); the kept list does not depend on the order
    // rows are offered in (a total order: score, then seq).
    const waiting = new Int32Array(4);
    const bases = new Int32Array(4);
    const scores = new Float64Array(4);
    let held = 0;
    for (let row = 0; row < seqs.length; row++) {
      if (!admits(scopes[row] as string[], kinds[row] as string, closed[row] as boolean)) continue;
      const base = row * dims;
      const count = nonZero[row] as number;
      if (count < 0) {
        waiting[held] = row;
        bases[held++] = base;
        if (held < 4) continue;
        dotFour(query, 0, data, bases, n, scores, 0);
        for (let k = 0; k < 4; k++)
          top.offer(seqs[waiting[k] as number] as number, scores[k] as number);
        held = 0;
        continue;
      }
      const score = finite
        ? sparseDotAt(query, data, index, base, count)
        : sparseDenseDotAt(query, data, index, base, count, dims);
      top.offer(seqs[row] as number, score);
    }
    for (let k = 0; k < held; k++) {
      const row = waiting[k] as number;
      top.offer(seqs[row] as number, dotAt(query, data, bases[k] as number, dims));
    }
    for (const [seq, odd] of this.odd) {
      if (!admits(odd.scopes, odd.kind, odd.closed)) continue;
      top.offer(seq, dotAt(query, odd.values, 0, odd.values.length));
    }
    return top.hits;
  }
}
