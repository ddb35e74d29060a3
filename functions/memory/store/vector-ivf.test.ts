import { describe, expect, it } from 'vitest';
import { nprobeFor } from './vector-ivf.ts';
import { kmeans, SampleRows, trainCentroids } from './vector-kmeans.ts';

/** A seeded generator, so a failure reproduces. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** `rows` unit vectors around `clusters` random centres, packed. */
function clustered(rows: number, dims: number, clusters: number, seed: number): Float32Array {
  const next = random(seed);
  const centres = Array.from({ length: clusters }, () =>
    Float32Array.from({ length: dims }, () => next() * 2 - 1),
  );
  const out = new Float32Array(rows * dims);
  for (let r = 0; r < rows; r++) {
    const c = centres[Math.floor(next() * clusters)] ?? new Float32Array(dims);
    let norm = 0;
    for (let i = 0; i < dims; i++) {
      const x = (c[i] as number) + 0.6 * (next() * 2 - 1);
      out[r * dims + i] = x;
      norm += x * x;
    }
    for (let i = 0; i < dims; i++)
      out[r * dims + i] = (out[r * dims + i] as number) / Math.sqrt(norm);
  }
  return out;
}

/** Mean dot product of each row with the centroid it is assigned to. */
function meanFit(
  sample: Float32Array,
  rows: number,
  dims: number,
  centroids: Float32Array,
  assigned: Int32Array,
): number {
  let sum = 0;
  for (let r = 0; r < rows; r++) {
    const c = (assigned[r] as number) * dims;
    for (let i = 0; i < dims; i++)
      sum += (sample[r * dims + i] as number) * (centroids[c + i] as number);
  }
  return sum / rows;
}

describe('IVF training', () => {
  it('trains many lists in two levels: as many unit centroids, every row assigned, nearly as tight', () => {
    const dims = 24;
    const rows = 6400;
    const lists = 400;
    const sample = clustered(rows, dims, 120, 7);
    const twoLevels = new Int32Array(rows);
    const centroids = trainCentroids(sample, rows, dims, lists, twoLevels);
    expect(centroids.length).toBe(lists * dims);
    for (let l = 0; l < lists; l++) {
      let norm = 0;
      for (let i = 0; i < dims; i++) norm += (centroids[l * dims + i] as number) ** 2;
      expect(Math.sqrt(norm)).toBeCloseTo(1, 5);
    }
    const used = new Set(twoLevels);
    for (const list of used) expect(list >= 0 && list < lists).toBe(true);
    // Most lists hold rows: the groups' shares follow their sizes.
    expect(used.size).toBeGreaterThan(lists * 0.9);
    const oneLevel = new Int32Array(rows);
    const flat = kmeans(sample, rows, dims, lists, oneLevel);
    const fitTwo = meanFit(sample, rows, dims, centroids, twoLevels);
    const fitOne = meanFit(sample, rows, dims, flat, oneLevel);
    expect(fitTwo).toBeGreaterThan(0.97 * fitOne);
    // And the rows of a list are near each other, not spread over the sample: far above a
    // random assignment's fit.
    const shuffled = Int32Array.from(twoLevels, (_, r) => (r * 7919) % lists);
    expect(fitTwo).toBeGreaterThan(meanFit(sample, rows, dims, centroids, shuffled) + 0.2);
  });

  it('trains on a sample held as int8 rows: a quarter of the bytes, centroids as tight', () => {
    const dims = 48;
    const rows = 4000;
    const lists = 100;
    const sample = clustered(rows, dims, 60, 11);
    const compact = new SampleRows(rows, dims);
    for (let r = 0; r < rows; r++) compact.push(sample.subarray(r * dims, (r + 1) * dims));
    expect(compact.rows).toBe(rows);
    // Full: nothing more is taken.
    expect(compact.push(sample.subarray(0, dims))).toBe(false);
    expect(compact.bytes()).toBeLessThan(sample.byteLength / 3.5);
    // Each value within half a step (its row's largest value / 254) of the original.
    for (const r of [0, 1234, rows - 1]) {
      const row = sample.subarray(r * dims, (r + 1) * dims);
      const step = Math.max(...Array.from(row, Math.abs)) / 127;
      const decoded = compact.row(r);
      for (let i = 0; i < dims; i++)
        expect(Math.abs((decoded[i] as number) - (row[i] as number))).toBeLessThanOrEqual(
          step / 2 + 1e-6,
        );
    }
    const fromFloat = new Int32Array(rows);
    const fromInt8 = new Int32Array(rows);
    const exact = trainCentroids(sample, rows, dims, lists, fromFloat);
    const rounded = trainCentroids(compact, rows, dims, lists, fromInt8);
    // Judged on the float rows: the int8 sample's centroids fit them as well.
    const fitExact = meanFit(sample, rows, dims, exact, fromFloat);
    expect(meanFit(sample, rows, dims, rounded, fromInt8)).toBeGreaterThan(0.99 * fitExact);
  });

  it('keeps one k-means below 64 lists, with the same centroids as before', () => {
    const dims = 16;
    const rows = 2000;
    const sample = clustered(rows, dims, 30, 9);
    const a = new Int32Array(rows);
    const b = new Int32Array(rows);
    expect(trainCentroids(sample, rows, dims, 40, a)).toEqual(kmeans(sample, rows, dims, 40, b));
    expect(a).toEqual(b);
  });
});

describe('lists probed first', () => {
  it('reads a small index whole, and fewer lists of a large narrow index than of a wide one', () => {
    expect(nprobeFor(16, 100)).toBe(16);
    // Below 256 lists: 2 sqrt(lists) for narrow vectors, 2.7 sqrt for wide ones.
    expect(nprobeFor(100, 100)).toBe(20);
    expect(nprobeFor(100, 768)).toBe(27);
    // From 256 lists a narrow index probes 1.5 sqrt (a million local vectors: 647 lists, 39).
    expect(nprobeFor(647, 100)).toBe(39);
    expect(nprobeFor(647, 768)).toBe(69);
    expect(nprobeFor(647, 100, 2)).toBe(51);
  });

  it("probes fewer lists of a large narrow index for a fused mode's vector arm, and only there", () => {
    // A million local vectors: 26 of 647 lists (1 sqrt) against a vector search's 39.
    expect(nprobeFor(647, 100, 'fused')).toBe(26);
    // Below 256 lists, and for wide vectors, a fused arm probes what a vector search does.
    expect(nprobeFor(100, 100, 'fused')).toBe(nprobeFor(100, 100));
    expect(nprobeFor(647, 768, 'fused')).toBe(nprobeFor(647, 768));
    expect(nprobeFor(16, 100, 'fused')).toBe(16);
  });
});
