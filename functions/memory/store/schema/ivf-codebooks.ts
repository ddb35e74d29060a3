import type { SchemaMigration } from './types.ts';

/**
 * IVF lists of product-quantised codes (issue 38, store/vector-pq.ts): `_vector_gens.codebook`
 * holds a generation's codebook (256 points per run of two or four dimensions, float32); its
 * blocks and tail rows then hold one byte per run of each vector's residual instead of one signed
 * byte per dimension, so a query reads a half (100 dimensions) or a quarter (768) of the bytes.
 * Additive: a generation trained before this step keeps its int8 codes and is searched as
 * before; the background step trains a new generation with a codebook and moves the vectors to
 * it (`workFor`), a batch per step, both probed until it has them all.
 */
export const ivfCodebooksStep: SchemaMigration = {
  version: 17,
  name: 'IVF lists of PQ codes',
  up(sql) {
    sql.exec('ALTER TABLE _vector_gens ADD COLUMN codebook BLOB');
  },
};
