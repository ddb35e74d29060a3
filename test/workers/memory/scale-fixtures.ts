import { VectorMatrix, type VectorFilter } from '../../../functions/memory/store/vector-matrix.ts';
import type { NewItem } from '../../../functions/memory/store/types.ts';
import { mulberry32 } from '../../fixtures/prng.ts';

// What the scale tests (context-at-scale.test.ts, ivf-lists.test.ts) write and compare against:
// clustered unit vectors as items in four lenses, and the exact scan read straight from SQLite.

export const MODEL = 'synthetic-test';

/** Unit vectors around `clusters` random centres: what real embeddings of topics look like. */
export function clusteredVectors(
  n: number,
  dims: number,
  clusters: number,
  seed: number,
): Float32Array[] {
  const next = mulberry32(seed);
  const gauss = (): number =>
    Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());
  const centres = Array.from({ length: clusters }, () =>
    Float32Array.from({ length: dims }, gauss),
  );
  return Array.from({ length: n }, () => {
    const centre = centres[Math.floor(next() * clusters)] ?? new Float32Array(dims);
    const v = Float32Array.from({ length: dims }, (_, i) => (centre[i] ?? 0) + 0.8 * gauss());
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

export const SCOPES = [['team:eng'], ['team:sales'], ['team:eng', 'project:falcon'], []];

export function items(vectors: Float32Array[], from: number): NewItem[] {
  return vectors.map((values, i) => ({
    kind: 'fact',
    content: `note ${from + i} about topic ${(from + i) % 17}`,
    scopes: SCOPES[(from + i) % SCOPES.length] ?? [],
    metadata: null,
    sessionId: null,
    sourceId: null,
    entities: [],
    vector: { modelId: MODEL, values },
  }));
}

export const everything: VectorFilter = () => true;
export const engOnly: VectorFilter = (scopes) => scopes.includes('team:eng');

/** The exact top `k` by the packed in-memory scan, read straight from SQLite. */
export function exactTop(sql: SqlStorage, query: Float32Array, k: number, accept: VectorFilter) {
  const matrix = new VectorMatrix();
  for (const row of sql.exec<{
    item_seq: number;
    vector: ArrayBuffer;
    scopes: string;
    kind: string;
  }>(
    `SELECT v.item_seq, v.vector, i.scopes, i.kind FROM item_vectors v
       JOIN items i ON i.seq = v.item_seq WHERE v.model_id = ?`,
    MODEL,
  ))
    matrix.set(
      row.item_seq,
      new Float32Array(row.vector),
      JSON.parse(row.scopes) as string[],
      row.kind,
      false,
    );
  return matrix.search(query, k, accept);
}

/** Entries of the IVF lists: packed in blocks and in the tail. */
export function indexedEntries(sql: SqlStorage): number {
  const packed = sql
    .exec<{ n: number }>('SELECT COALESCE(SUM(n), 0) AS n FROM _vector_blocks')
    .one().n;
  return packed + sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM _vector_postings').one().n;
}
