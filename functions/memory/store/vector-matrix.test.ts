import { describe, expect, it } from 'vitest';
import { cosine } from '../retrieval/embedder.ts';
import { VectorMatrix, type VectorFilter } from './vector-matrix.ts';

/** A seeded generator, so a failure reproduces. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Row {
  values: Float32Array;
  scopes: string[];
  kind: string;
  closed: boolean;
}

/** What vectorSearch computed before the packed matrix: score every row, sort, keep `limit`. */
function reference(
  rows: Map<number, Row>,
  query: Float32Array,
  limit: number,
  accept: VectorFilter,
) {
  const hits: { seq: number; score: number }[] = [];
  for (const [seq, r] of rows) {
    if (accept(r.scopes, r.kind, r.closed)) hits.push({ seq, score: cosine(query, r.values) });
  }
  hits.sort((a, b) => b.score - a.score || a.seq - b.seq);
  return hits.slice(0, limit);
}

describe('VectorMatrix', () => {
  it('returns exactly the scores and order of a full sort, through inserts, replacements, closes and deletes', () => {
    const next = random(7);
    const vector = (dims: number) => {
      const v = new Float32Array(dims);
      // Half the rows mostly zeros (stored sparse), half dense; coarse values make equal scores
      // common, so the seq tie-break is exercised.
      const zeros = next() < 0.5 ? 0.85 : 0.1;
      for (let i = 0; i < dims; i++) v[i] = next() < zeros ? 0 : Math.round(next() * 4 - 2) / 2;
      return v;
    };
    const matrix = new VectorMatrix();
    const rows = new Map<number, Row>();
    const scopeSets = [[], ['team:a'], ['team:b'], ['team:a', 'user:x']];
    for (let step = 0; step < 3000; step++) {
      const seq = 1 + Math.floor(next() * 800);
      const roll = next();
      if (roll < 0.7) {
        // Now and then a vector of another length, which the matrix keeps unpacked.
        const row: Row = {
          values: vector(next() < 0.03 ? 12 : 16),
          scopes: [...(scopeSets[Math.floor(next() * scopeSets.length)] ?? [])],
          kind: next() < 0.8 ? 'fact' : 'chunk',
          closed: false,
        };
        rows.set(seq, row);
        matrix.set(seq, row.values, row.scopes, row.kind, row.closed);
      } else if (roll < 0.85) {
        const row = rows.get(seq);
        if (row) row.closed = true;
        matrix.close(seq);
      } else {
        rows.delete(seq);
        matrix.delete(seq);
      }
    }
    expect(matrix.size).toBe(rows.size);
    const filters: VectorFilter[] = [
      () => true,
      (_s, _k, closed) => !closed,
      (scopes, kind, closed) => !closed && kind === 'fact' && scopes.includes('team:a'),
    ];
    for (let q = 0; q < 40; q++) {
      const query = vector(16);
      for (const accept of filters) {
        for (const limit of [1, 10, 30, 1000]) {
          expect(matrix.search(query, limit, accept)).toEqual(
            reference(rows, query, limit, accept),
          );
        }
      }
    }
  });

  it('scores a sparse row as the dense loop does, also for a query with a non-finite value', () => {
    const row = new Float32Array(32);
    row[3] = 0.5;
    row[17] = -0.25;
    const matrix = new VectorMatrix();
    matrix.set(1, row, [], 'fact', false);
    const queries = [
      Float32Array.from({ length: 32 }, (_, i) => (i % 5) - 2),
      Float32Array.from({ length: 32 }, (_, i) => (i === 8 ? Infinity : 1)),
      Float32Array.from({ length: 10 }, () => 1),
    ];
    for (const query of queries) {
      const [hit] = matrix.search(query, 1, () => true);
      expect(Object.is(hit?.score, cosine(query, row))).toBe(true);
    }
  });

  it('asks the filter once per distinct scope set, kind and closed state', () => {
    const matrix = new VectorMatrix();
    for (let seq = 1; seq <= 100; seq++)
      matrix.set(seq, new Float32Array([seq, 1]), [seq % 2 ? 'team:a' : 'team:b'], 'fact', false);
    let asked = 0;
    const hits = matrix.search(new Float32Array([1, 0]), 3, (scopes) => {
      asked++;
      return scopes[0] === 'team:a';
    });
    expect(asked).toBe(2);
    expect(hits.map((h) => h.seq)).toEqual([99, 97, 95]);
  });

  it('returns nothing for a limit of 0 or an empty matrix', () => {
    const matrix = new VectorMatrix();
    expect(matrix.search(new Float32Array([1]), 5, () => true)).toEqual([]);
    matrix.set(1, new Float32Array([1]), [], 'fact', false);
    expect(matrix.search(new Float32Array([1]), 0, () => true)).toEqual([]);
  });
});
