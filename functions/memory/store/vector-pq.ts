/**
 * Product-quantised codes for the IVF lists (vector-ivf.ts), schema step 17: what a query reads
 * of every vector in the lists it probes.
 *
 * A vector is stored in its list as its residual from the list's centroid, cut into `subspaces`
 * runs of `width` dimensions, each run replaced by the byte naming the nearest of 256 points
 * trained for that run (the generation's codebook). A query's score for an entry is its list's
 * centroid score plus one table lookup per run: `table[m][code[m]]` is the query's dot product
 * with point `code[m]` of run `m`, computed once per query (256 x dims multiply-adds).
 *
 * Why: at a million facts a query probes about 8% of the vectors, and reading their int8 codes
 * (one byte a dimension) was most of its time: 9 MB a `vector` question at 100 dimensions, 68 MB
 * at 768, read a 4 kB page at a time. Two dimensions a byte below 256 dimensions and four above
 * halve and quarter that, and a lookup replaces two multiply-adds or four. The codes are coarser
 * than int8, so more candidates are rescored with the stored float vectors (vector-scans.ts):
 * measured on a million of the local model's vectors (51 lists probed), the exact top 10 of the
 * probed lists is within the codes' best 36 for 0.963 of the questions' items and within the best
 * 104 for all of them; at 768 dimensions (30k synthetic vectors), 0.990 and 1.000.
 */

/** Points per run: one byte names one. */
export const PQ_POINTS = 256;
/** Training rows (residuals) for the codebook, and Lloyd iterations over them. */
const TRAIN_ROWS = 2048;
const TRAIN_ITERATIONS = 4;

export interface Codebook {
  dims: number;
  /** Dimensions a run covers (the last run may cover fewer). */
  width: number;
  subspaces: number;
  /** `subspaces` x `PQ_POINTS` x `width` floats; a short last run is zero-padded. */
  points: Float32Array<ArrayBuffer>;
}

/** Dimensions a byte covers: 2 up to 256 dimensions, 4 above. */
export function pqWidth(dims: number): number {
  return dims <= 256 ? 2 : 4;
}

export function pqSubspaces(dims: number): number {
  return Math.ceil(dims / pqWidth(dims));
}

/** Bytes a codebook holds in memory. */
export function codebookBytes(book: Codebook): number {
  return book.points.byteLength;
}

/** A codebook as stored (`_vector_gens.codebook`): its points, float32. */
export function codebookOf(blob: ArrayBuffer, dims: number): Codebook | null {
  const width = pqWidth(dims);
  const subspaces = pqSubspaces(dims);
  if (blob.byteLength !== subspaces * PQ_POINTS * width * 4) return null;
  return { dims, width, subspaces, points: new Float32Array(blob.slice(0)) };
}

/** Which of `rows` residuals train a codebook: at most TRAIN_ROWS, spread evenly. */
export function codebookRows(rows: number): number[] {
  const take = Math.min(rows, TRAIN_ROWS);
  const stride = take > 0 ? rows / take : 1;
  return Array.from({ length: take }, (_, i) => Math.floor(i * stride));
}

/**
 * Trains a codebook on `rows` packed residuals (k-means per run, Euclidean). Deterministic: the
 * first points are rows spread evenly over the residuals; a point no row chose keeps its place.
 */
export function trainCodebook(residuals: Float32Array, rows: number, dims: number): Codebook {
  const width = pqWidth(dims);
  const subspaces = pqSubspaces(dims);
  const points = new Float32Array(subspaces * PQ_POINTS * width);
  const used = codebookRows(rows);
  const take = used.length;
  const chosen = new Int32Array(take);
  const sums = new Float64Array(PQ_POINTS * width);
  const counts = new Int32Array(PQ_POINTS);
  for (let m = 0; m < subspaces; m++) {
    const lo = m * width;
    const w = Math.min(width, dims - lo);
    const base = m * PQ_POINTS * width;
    if (take === 0) continue;
    for (let k = 0; k < PQ_POINTS; k++) {
      const row = used[Math.floor((k * take) / PQ_POINTS)] as number;
      for (let j = 0; j < w; j++)
        points[base + k * width + j] = residuals[row * dims + lo + j] as number;
    }
    for (let iteration = 0; iteration < TRAIN_ITERATIONS; iteration++) {
      for (let r = 0; r < take; r++)
        chosen[r] = nearestPoint(
          points,
          base,
          width,
          w,
          residuals,
          (used[r] as number) * dims + lo,
        );
      sums.fill(0);
      counts.fill(0);
      for (let r = 0; r < take; r++) {
        const k = chosen[r] as number;
        counts[k] = (counts[k] as number) + 1;
        const at = (used[r] as number) * dims + lo;
        for (let j = 0; j < w; j++)
          sums[k * width + j] = (sums[k * width + j] as number) + (residuals[at + j] as number);
      }
      for (let k = 0; k < PQ_POINTS; k++) {
        const n = counts[k] as number;
        if (n === 0) continue;
        for (let j = 0; j < w; j++)
          points[base + k * width + j] = (sums[k * width + j] as number) / n;
      }
    }
  }
  return { dims, width, subspaces, points };
}

/**
 * The point of the run at `base` nearest to `w` values of `v` from `at`. Runs of two and four
 * are unrolled: encoding is 256 points a run for every vector written (65 -> about 20 us a
 * vector at 100 dimensions).
 */
function nearestPoint(
  points: Float32Array,
  base: number,
  width: number,
  w: number,
  v: ArrayLike<number>,
  at: number,
): number {
  let best = 0;
  let bestDistance = Number.POSITIVE_INFINITY;
  if (w === 2 && width === 2) {
    const x0 = v[at] as number;
    const x1 = v[at + 1] as number;
    for (let k = 0, p = base; k < PQ_POINTS; k++, p += 2) {
      const d0 = x0 - (points[p] as number);
      const d1 = x1 - (points[p + 1] as number);
      const d = d0 * d0 + d1 * d1;
      if (d < bestDistance) {
        bestDistance = d;
        best = k;
      }
    }
    return best;
  }
  if (w === 4 && width === 4) {
    const x0 = v[at] as number;
    const x1 = v[at + 1] as number;
    const x2 = v[at + 2] as number;
    const x3 = v[at + 3] as number;
    for (let k = 0, p = base; k < PQ_POINTS; k++, p += 4) {
      const d0 = x0 - (points[p] as number);
      const d1 = x1 - (points[p + 1] as number);
      const d2 = x2 - (points[p + 2] as number);
      const d3 = x3 - (points[p + 3] as number);
      const d = d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3;
      if (d < bestDistance) {
        bestDistance = d;
        best = k;
      }
    }
    return best;
  }
  for (let k = 0; k < PQ_POINTS; k++) {
    const p = base + k * width;
    let d = 0;
    for (let j = 0; j < w; j++) {
      const x = (v[at + j] as number) - (points[p + j] as number);
      d += x * x;
    }
    if (d < bestDistance) {
      bestDistance = d;
      best = k;
    }
  }
  return best;
}

/** The code of `v`'s residual from `centroids[list]`: one byte per run. */
export function pqEncode(
  book: Codebook,
  v: Float32Array,
  centroids: Float32Array,
  list: number,
): Uint8Array {
  const { dims, width, subspaces, points } = book;
  const residual = new Float32Array(dims);
  const c = list * dims;
  for (let i = 0; i < dims; i++) residual[i] = (v[i] ?? 0) - (centroids[c + i] as number);
  const code = new Uint8Array(subspaces);
  for (let m = 0; m < subspaces; m++) {
    const lo = m * width;
    code[m] = nearestPoint(
      points,
      m * PQ_POINTS * width,
      width,
      Math.min(width, dims - lo),
      residual,
      lo,
    );
  }
  return code;
}

/** The query's lookup table: its dot product with every point of every run. */
export function pqTable(book: Codebook, query: Float32Array): Float32Array {
  const { dims, width, subspaces, points } = book;
  const table = new Float32Array(subspaces * PQ_POINTS);
  for (let m = 0; m < subspaces; m++) {
    const lo = m * width;
    const w = Math.min(width, dims - lo);
    for (let k = 0; k < PQ_POINTS; k++) {
      const p = (m * PQ_POINTS + k) * width;
      let dot = 0;
      for (let j = 0; j < w; j++) dot += (query[lo + j] ?? 0) * (points[p + j] as number);
      table[m * PQ_POINTS + k] = dot;
    }
  }
  return table;
}

/** The residual's approximate dot product with the query: one lookup per run of `codes` at `at`. */
export function pqDot(
  table: Float32Array,
  codes: Uint8Array,
  at: number,
  subspaces: number,
): number {
  let dot = 0;
  for (let m = 0; m < subspaces; m++) dot += table[(m << 8) | (codes[at + m] as number)] as number;
  return dot;
}
