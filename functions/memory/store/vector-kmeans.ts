/**
 * Training an IVF generation's centroids (vector-ivf.ts `trainGeneration`): spherical k-means,
 * in two levels from 64 lists.
 */

import { nearestRow, quantiseInt8 } from './vector-rows.ts';

const KMEANS_ITERATIONS = 5;

/**
 * Training sample rows held as int8 codes with one float32 scale a row: a quarter of float32's
 * bytes. A million 768-dimension vectors train 1,000 lists on 16,000 sample rows: 49 MB as
 * float32, more than a third of an isolate's 128 MB for the length of a background step; 12 MB
 * so. The rounding (under half a percent of a row's largest value) moves the centroids less than
 * the sample's own noise does.
 */
export class SampleRows {
  readonly dims: number;
  readonly codes: Int8Array;
  readonly scales: Float32Array;
  rows = 0;
  private readonly scratch: Float32Array;

  constructor(capacity: number, dims: number) {
    this.dims = dims;
    this.codes = new Int8Array(capacity * dims);
    this.scales = new Float32Array(capacity);
    this.scratch = new Float32Array(dims);
  }

  /** Appends `v` (its first `dims` values); false when full. */
  push(v: Float32Array): boolean {
    if (this.rows >= this.scales.length) return false;
    this.scales[this.rows] = quantiseInt8(v, this.dims, this.codes, this.rows * this.dims);
    this.rows += 1;
    return true;
  }

  /** Row `r` decoded, in a buffer the next call overwrites. */
  row(r: number): Float32Array {
    const scale = this.scales[r] as number;
    const base = r * this.dims;
    for (let i = 0; i < this.dims; i++) this.scratch[i] = (this.codes[base + i] as number) * scale;
    return this.scratch;
  }

  bytes(): number {
    return this.codes.byteLength + this.scales.byteLength;
  }
}

/** Row `r` of a training sample: a view of packed float32 rows, or a decoded int8 row. */
type Rows = Float32Array | SampleRows;

function rowOf(sample: Rows, r: number, dims: number): Float32Array {
  return sample instanceof SampleRows ? sample.row(r) : sample.subarray(r * dims, (r + 1) * dims);
}

function normaliseRow(data: Float32Array, base: number, dims: number): void {
  let norm = 0;
  for (let i = 0; i < dims; i++) norm += (data[base + i] as number) ** 2;
  norm = Math.sqrt(norm);
  if (norm === 0) return;
  for (let i = 0; i < dims; i++) data[base + i] = (data[base + i] as number) / norm;
}

/**
 * Spherical k-means over `rows` packed sample vectors: `lists` unit centroids. Deterministic: the
 * first centroids are sample rows spread evenly over the sample, and an emptied list takes the
 * sample row its centroid fits worst.
 */
export function kmeans(
  sample: Rows,
  rows: number,
  dims: number,
  lists: number,
  assigned?: Int32Array,
): Float32Array {
  const k = Math.max(1, Math.min(lists, rows));
  const centroids = new Float32Array(k * dims);
  for (let l = 0; l < k; l++) {
    const row = Math.floor((l * rows) / k);
    centroids.set(rowOf(sample, row, dims), l * dims);
    normaliseRow(centroids, l * dims, dims);
  }
  const assignment = new Int32Array(rows);
  const fit = new Float64Array(rows);
  for (let iteration = 0; iteration < KMEANS_ITERATIONS; iteration++) {
    for (let r = 0; r < rows; r++) {
      const { row, score } = nearestRow(rowOf(sample, r, dims), 0, centroids, k, dims);
      assignment[r] = row;
      fit[r] = score;
    }
    centroids.fill(0);
    const sizes = new Int32Array(k);
    for (let r = 0; r < rows; r++) {
      const l = assignment[r] as number;
      sizes[l] = (sizes[l] as number) + 1;
      const cb = l * dims;
      const v = rowOf(sample, r, dims);
      for (let i = 0; i < dims; i++)
        centroids[cb + i] = (centroids[cb + i] as number) + (v[i] as number);
    }
    for (let l = 0; l < k; l++) {
      if (sizes[l] === 0) {
        let worst = 0;
        for (let r = 1; r < rows; r++) if ((fit[r] as number) < (fit[worst] as number)) worst = r;
        fit[worst] = Number.POSITIVE_INFINITY;
        centroids.set(rowOf(sample, worst, dims), l * dims);
      }
      normaliseRow(centroids, l * dims, dims);
    }
  }
  // The last pass's lists, for the codebook's residuals (the centroids moved once after it).
  assigned?.set(assignment.subarray(0, Math.min(rows, assigned.length)));
  return centroids;
}

/** Lists from which centroids are trained in two levels (`trainCentroids`). */
const TWO_LEVELS_FROM = 64;

/**
 * `lists` centroids for `rows` sample vectors, `assigned` each row's list. Up to 64 lists one
 * k-means; above, two levels: sqrt(lists) groups first, then each group's rows split into its
 * share of the lists. One k-means over all lists costs rows x lists x dims per iteration: at a
 * million 768-dimension vectors (1,000 lists, 16,000 sample rows) 61 G multiply-adds in one
 * background step, about a minute of CPU, past a Durable Object's 30 s limit in production. Two
 * levels cost about 2 sqrt(lists) instead of lists per row: 4 G there.
 */
export function trainCentroids(
  sample: Rows,
  rows: number,
  dims: number,
  lists: number,
  assigned: Int32Array,
): Float32Array {
  if (lists < TWO_LEVELS_FROM || rows < lists * 2)
    return kmeans(sample, rows, dims, lists, assigned);
  const groups = Math.round(Math.sqrt(lists));
  const group = new Int32Array(rows);
  kmeans(sample, rows, dims, groups, group);
  const members: number[][] = Array.from({ length: groups }, () => []);
  for (let r = 0; r < rows; r++) members[group[r] as number]?.push(r);
  // Each group's share of the lists, by its rows (largest remainders first), at least one.
  const exact = members.map((m) => (lists * m.length) / rows);
  const share = exact.map((x, g) =>
    (members[g]?.length ?? 0) > 0 ? Math.max(1, Math.floor(x)) : 0,
  );
  let left = lists - share.reduce((a, b) => a + b, 0);
  const byRemainder = exact
    .map((x, g) => ({ g, r: x - Math.floor(x) }))
    .sort((a, b) => b.r - a.r || a.g - b.g);
  for (let i = 0; left > 0 && byRemainder.length > 0; i = (i + 1) % byRemainder.length) {
    const g = (byRemainder[i] as { g: number }).g;
    if ((members[g]?.length ?? 0) === 0) continue;
    share[g] = (share[g] as number) + 1;
    left -= 1;
  }
  // At least one list a group can make the total exceed `lists` by a few: sized by the shares.
  const out = new Float32Array(share.reduce((a, b) => a + b, 0) * dims);
  let next = 0;
  for (let g = 0; g < groups; g++) {
    const rowsOf = members[g] ?? [];
    if (rowsOf.length === 0) continue;
    // One group's rows at a time, as float32: the sample is not copied whole.
    const sub = new Float32Array(rowsOf.length * dims);
    rowsOf.forEach((r, i) => sub.set(rowOf(sample, r, dims), i * dims));
    const subAssigned = new Int32Array(rowsOf.length);
    const centroids = kmeans(sub, rowsOf.length, dims, share[g] as number, subAssigned);
    out.set(centroids, next * dims);
    rowsOf.forEach((r, i) => {
      assigned[r] = next + (subAssigned[i] as number);
    });
    next += centroids.length / dims;
  }
  return out.slice(0, next * dims);
}
