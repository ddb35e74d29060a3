import { describe, expect, it } from 'vitest';
import { nearestRow, scoreRows } from './vector-rows.ts';

/** Values in (-1, 1) from a seed, the same on every machine (sin's fraction: no generator needed). */
function vectors(rows: number, dims: number, seed: number): Float32Array {
  return Float32Array.from({ length: rows * dims }, (_, i) => {
    const x = Math.sin(seed * 12.9898 + i * 78.233) * 43758.5453;
    return (x - Math.floor(x)) * 2 - 1;
  });
}

/** One row at a time, in dimension order: what the four-row kernel must equal exactly. */
function plainDot(v: Float32Array, vBase: number, rows: Float32Array, r: number, dims: number) {
  let s = 0;
  for (let i = 0; i < dims; i++) s += (v[vBase + i] as number) * (rows[r * dims + i] as number);
  return s;
}

describe('scoring a vector against packed rows', () => {
  it('gives every row the one-row loop dot product, bit for bit, whatever the count', () => {
    for (const [count, dims] of [
      [1, 3],
      [4, 7],
      [7, 100],
      [1003, 100],
      [6, 768],
    ] as const) {
      const rows = vectors(count, dims, count + dims);
      const many = vectors(5, dims, 99);
      const out = new Float64Array(count);
      // The vector read from inside a packed matrix (its third row), as k-means does.
      scoreRows(many, 2 * dims, rows, count, dims, out);
      for (let r = 0; r < count; r++) expect(out[r]).toBe(plainDot(many, 2 * dims, rows, r, dims));
    }
  });

  it('finds the first of the best rows, with its score', () => {
    const dims = 5;
    const rows = vectors(9, dims, 3);
    const v = vectors(1, dims, 4);
    // Rows 6 and 8 are the same, and the best: the first is named.
    const best = Array.from({ length: 9 }, (_, r) => plainDot(v, 0, rows, r, dims));
    const top = best.indexOf(Math.max(...best));
    rows.copyWithin(6 * dims, top * dims, (top + 1) * dims);
    rows.copyWithin(8 * dims, top * dims, (top + 1) * dims);
    const first = Math.min(top, 6);
    expect(nearestRow(v, 0, rows, 9, dims)).toEqual({
      row: first,
      score: plainDot(v, 0, rows, first, dims),
    });
    // More rows than any call before: the scores' scratch grows.
    const wide = vectors(5000, dims, 8);
    const scores = Array.from({ length: 5000 }, (_, r) => plainDot(v, 0, wide, r, dims));
    expect(nearestRow(v, 0, wide, 5000, dims).row).toBe(scores.indexOf(Math.max(...scores)));
  });
});
