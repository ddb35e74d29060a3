import { describe, expect, it } from 'vitest';
import {
  codebookOf,
  PQ_POINTS,
  pqDot,
  pqEncode,
  pqSubspaces,
  pqTable,
  pqWidth,
  trainCodebook,
  type Codebook,
} from './vector-pq.ts';

/** A seeded generator, so a failure reproduces. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function vectors(rows: number, dims: number, seed: number): Float32Array {
  const next = random(seed);
  const out = new Float32Array(rows * dims);
  for (let i = 0; i < out.length; i++) out[i] = next() * 2 - 1;
  return out;
}

/** The vector a code stands for: each run's point, added to the list's centroid. */
function decoded(book: Codebook, code: Uint8Array, centroid: Float32Array): Float32Array {
  const out = Float32Array.from(centroid);
  for (let m = 0; m < book.subspaces; m++)
    for (let j = 0; j < book.width && m * book.width + j < book.dims; j++)
      out[m * book.width + j] =
        (out[m * book.width + j] as number) +
        (book.points[(m * PQ_POINTS + (code[m] as number)) * book.width + j] as number);
  return out;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

describe('product-quantised codes', () => {
  it('cut 100 dimensions into runs of two and 768 or 1024 into runs of four', () => {
    expect([pqWidth(100), pqSubspaces(100)]).toEqual([2, 50]);
    expect([pqWidth(768), pqSubspaces(768)]).toEqual([4, 192]);
    expect([pqWidth(1024), pqSubspaces(1024)]).toEqual([4, 256]);
    // A width that does not divide: the last run is shorter.
    expect([pqWidth(33), pqSubspaces(33)]).toEqual([2, 17]);
  });

  it('score an entry by lookups exactly as the dot product with the vector its code stands for', () => {
    for (const dims of [33, 100, 300]) {
      const rows = 600;
      const book = trainCodebook(vectors(rows, dims, dims), rows, dims);
      const centroids = vectors(3, dims, 7);
      const query = vectors(1, dims, 8);
      const table = pqTable(book, query);
      const v = vectors(1, dims, 9);
      for (let list = 0; list < 3; list++) {
        const code = pqEncode(book, v, centroids, list);
        expect(code.length).toBe(pqSubspaces(dims));
        const centroid = centroids.subarray(list * dims, (list + 1) * dims);
        const lookups = dot(query, centroid) + pqDot(table, code, 0, book.subspaces);
        expect(lookups).toBeCloseTo(dot(query, decoded(book, code, centroid)), 4);
      }
    }
  });

  it('encode each run as its nearest point, so the code is the best this codebook can do', () => {
    // Runs of two, of four, and a short last run (33 = 16 x 2 + 1).
    for (const dims of [33, 40, 300]) expectNearest(dims);
  });

  function expectNearest(dims: number): void {
    const book = trainCodebook(vectors(500, dims, 3), 500, dims);
    const zero = new Float32Array(dims);
    const next = random(4);
    for (let t = 0; t < 20; t++) {
      const v = vectors(1, dims, 100 + t);
      const code = pqEncode(book, v, zero, 0);
      const error = (c: Uint8Array) => {
        const d = decoded(book, c, zero);
        return dot(
          d.map((x, i) => x - (v[i] as number)),
          d.map((x, i) => x - (v[i] as number)),
        );
      };
      // Any single run moved to another point is no closer.
      const other = Uint8Array.from(code);
      const m = Math.floor(next() * book.subspaces);
      other[m] = ((code[m] as number) + 1 + Math.floor(next() * 254)) % PQ_POINTS;
      expect(error(code)).toBeLessThanOrEqual(error(other) + 1e-9);
      // The last run too (the short one when the width does not divide).
      const last = Uint8Array.from(code);
      const m2 = book.subspaces - 1;
      last[m2] = ((code[m2] as number) + 1 + Math.floor(next() * 254)) % PQ_POINTS;
      expect(error(code)).toBeLessThanOrEqual(error(last) + 1e-9);
    }
  }

  it('trains deterministically, and reads back only a codebook of its width', () => {
    const dims = 100;
    const data = vectors(3000, dims, 11);
    const a = trainCodebook(data, 3000, dims);
    const b = trainCodebook(data, 3000, dims);
    expect(a.points).toEqual(b.points);
    // The points move from their seeds towards the residuals' clusters.
    expect(codebookOf(a.points.buffer, dims)?.points).toEqual(a.points);
    expect(codebookOf(a.points.buffer, 768)).toBeNull();
    expect(codebookOf(new ArrayBuffer(12), dims)).toBeNull();
  });

  it('ranks like the exact scores: the exact top 10 of 5,000 vectors is within the codes best 128', () => {
    const dims = 100;
    const rows = 5000;
    const data = vectors(rows, dims, 21);
    const zero = new Float32Array(dims);
    const book = trainCodebook(data, rows, dims);
    const codes = new Uint8Array(rows * book.subspaces);
    for (let r = 0; r < rows; r++)
      codes.set(
        pqEncode(book, data.subarray(r * dims, (r + 1) * dims), zero, 0),
        r * book.subspaces,
      );
    let found = 0;
    for (let q = 0; q < 10; q++) {
      const query = vectors(1, dims, 500 + q);
      const table = pqTable(book, query);
      const exact = [...Array(rows).keys()]
        .map((r) => ({ r, s: dot(query, data.subarray(r * dims, (r + 1) * dims)) }))
        .sort((x, y) => y.s - x.s)
        .slice(0, 10)
        .map((e) => e.r);
      const coarse = new Set(
        [...Array(rows).keys()]
          .map((r) => ({ r, s: pqDot(table, codes, r * book.subspaces, book.subspaces) }))
          .sort((x, y) => y.s - x.s)
          .slice(0, 128)
          .map((e) => e.r),
      );
      found += exact.filter((r) => coarse.has(r)).length;
    }
    expect(found / 100).toBeGreaterThanOrEqual(0.95);
  });
});
