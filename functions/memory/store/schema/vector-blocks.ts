import type { SchemaMigration } from './types.ts';

/**
 * The IVF index's lists packed in blocks (issue 38), additive:
 *
 * - `_vector_blocks`: up to 256 entries of one list per row, as four BLOBs read in one go: the
 *   items' seqs (float64), their filter ids (uint32), the int8 codes' scales (float32) and the
 *   codes (one signed byte per dimension, entry after entry). A query reads a few rows per list it
 *   probes instead of one row per vector: per-row cost, not arithmetic, was what grew with the
 *   Context (a million facts: 64 lists probed, 64k rows, most of the vector query's time).
 * - `_vector_filters`: each distinct (kind, scopes) an entry can have, once; a query decides its
 *   lens once per id, not once per entry.
 * - `_vector_gens.dead`: entries a deletion left in blocks (they are dropped by the candidates'
 *   check against `items`); when they pass a quarter of the vectors a new generation rewrites
 *   the lists without them.
 *
 * `_vector_postings` stays as the lists' tail: a write adds its row there, and a background step
 * packs the tail into blocks. A Context indexed before this step keeps its rows as a tail that
 * the same step packs, so nothing is rebuilt here.
 */
export const vectorBlocksStep: SchemaMigration = {
  version: 14,
  name: 'IVF lists packed in blocks',
  up(sql) {
    sql.exec(`CREATE TABLE _vector_blocks (
      model_id TEXT NOT NULL,
      gen INTEGER NOT NULL,
      list INTEGER NOT NULL,
      block INTEGER NOT NULL,
      n INTEGER NOT NULL,
      seqs BLOB NOT NULL,
      filters BLOB NOT NULL,
      scales BLOB NOT NULL,
      codes BLOB NOT NULL,
      PRIMARY KEY (model_id, gen, list, block)
    )`);
    sql.exec(`CREATE TABLE _vector_filters (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL,
      scopes TEXT NOT NULL,
      UNIQUE (kind, scopes)
    )`);
    sql.exec('ALTER TABLE _vector_gens ADD COLUMN dead INTEGER NOT NULL DEFAULT 0');
  },
};
