/**
 * Dot products of one vector with every row of a packed matrix: the IVF index's centroid scoring
 * (assignment on write, the lists a query probes, k-means while training) and the exact matrix's
 * scan; and the int8 rounding the index's codes and training sample share.
 *
 * Four rows at a time: each element of `v` is read once for four products, and the four sums stay
 * in registers. Measured in workerd on 1,000 rows: 86-98 us at 100 dimensions and 630-720 at 768,
 * against 106-113 and 1,060 one row at a time; under the profiler, a write's assignment at a
 * million facts went from 120 to about 100 us. (V8 gains twice that on a closure over constant
 * arrays, not on a function of its arguments: k-means' time did not move.) Each row's sum still
 * runs in dimension order, so every score is the same double as the one-row loop's, bit for bit,
 * and no assignment changes.
 */

/** Dot product over the shorter length, summed in the order `cosine` (retrieval/embedder.ts) uses. */
export function dotAt(query: Float32Array, data: Float32Array, base: number, dims: number): number {
  const n = Math.min(query.length, dims);
  let dot = 0;
  for (let i = 0; i < n; i++) dot += (query[i] as number) * (data[base + i] as number);
  return dot;
}

/**
 * Rounds the first `n` of `values` to signed bytes at `out[at ..]`, on one scale (the largest
 * finite |value| / 127, or 1 for a zero row), and returns the scale: the IVF index's int8 codes
 * (vector-ivf.ts `encode`) and its training sample (vector-kmeans.ts `SampleRows`).
 */
export function quantiseInt8(values: Float32Array, n: number, out: Int8Array, at: number): number {
  let max = 0;
  for (let i = 0; i < n; i++) {
    const a = Math.abs(values[i] ?? 0);
    if (a > max && Number.isFinite(a)) max = a;
  }
  const scale = max > 0 ? max / 127 : 1;
  for (let i = 0; i < n; i++) {
    const q = Math.round((values[i] ?? 0) / scale);
    out[at + i] = Number.isFinite(q) ? Math.max(-127, Math.min(127, q)) : 0;
  }
  return scale;
}

/**
 * The dot products of `v[vBase ..]` with the four `n`-long rows of `data` at `bases`, into
 * `out[at ..]`: four running sums that do not wait on one another, where one row at a time makes
 * every addition wait for the one before. Each sum adds its terms in order, so each score is
 * exactly the one-row loop's. The one copy: the exact matrix (vector-matrix.ts) scores its dense
 * rows with it too.
 */
export function dotFour(
  v: Float32Array,
  vBase: number,
  data: Float32Array,
  bases: Int32Array,
  n: number,
  out: Float64Array,
  at: number,
): void {
  // Indexed from 0: one addition fewer per element (86 against 95 us in workerd, 1,000 x 100).
  const q = vBase === 0 ? v : v.subarray(vBase, vBase + n);
  const b0 = bases[0] as number;
  const b1 = bases[1] as number;
  const b2 = bases[2] as number;
  const b3 = bases[3] as number;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let i = 0; i < n; i++) {
    const x = q[i] as number;
    s0 += x * (data[b0 + i] as number);
    s1 += x * (data[b1 + i] as number);
    s2 += x * (data[b2 + i] as number);
    s3 += x * (data[b3 + i] as number);
  }
  out[at] = s0;
  out[at + 1] = s1;
  out[at + 2] = s2;
  out[at + 3] = s3;
}

const fourBases = new Int32Array(4);

/** `out[r]` = `v[vBase ..]` . row `r` of `rows` (`dims` wide), for `r` below `count`. */
export function scoreRows(
  v: Float32Array,
  vBase: number,
  rows: Float32Array,
  count: number,
  dims: number,
  out: Float64Array,
): void {
  let r = 0;
  for (; r + 4 <= count; r += 4) {
    fourBases[0] = r * dims;
    fourBases[1] = (r + 1) * dims;
    fourBases[2] = (r + 2) * dims;
    fourBases[3] = (r + 3) * dims;
    dotFour(v, vBase, rows, fourBases, dims, out, r);
  }
  const q = vBase === 0 ? v : v.subarray(vBase, vBase + dims);
  for (; r < count; r++) out[r] = dotAt(q, rows, r * dims, dims);
}

/**
 * Scores for `nearestRow`, grown to the largest count asked: one per isolate, since a call runs
 * to its end before any other can (8 KB for 1,024 lists), instead of one allocation per write.
 */
let scratch = new Float64Array(1024);

/** The first row with the highest dot product with `v[vBase ..]`, and that product. */
export function nearestRow(
  v: Float32Array,
  vBase: number,
  rows: Float32Array,
  count: number,
  dims: number,
): { row: number; score: number } {
  if (scratch.length < count) scratch = new Float64Array(count);
  scoreRows(v, vBase, rows, count, dims, scratch);
  let row = 0;
  let score = Number.NEGATIVE_INFINITY;
  for (let r = 0; r < count; r++) {
    const s = scratch[r] as number;
    if (s > score) {
      score = s;
      row = r;
    }
  }
  return { row, score };
}
