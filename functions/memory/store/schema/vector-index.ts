import type { SchemaMigration } from './types.ts';

/**
 * Storage for a Context of any size (issue 38), additive:
 *
 * - `_counts`: row counts kept by triggers (`items`, and `vectors:<model>` per embedding model),
 *   so a search after a bulk write reads two rows instead of counting a million-row index.
 * - `_vector_gens`, `_vector_lists`, `_vector_postings`: an IVF index per embedding model
 *   (store/vector-ivf.ts). A generation is one k-means training: its centroids (`_vector_lists`),
 *   and the seqs it still has to take in (`next_seq` through `end_seq`, the vectors that existed
 *   when it was trained). Each vector sits in at most one list of one generation, with an int8
 *   code (a float32 scale, then one byte per dimension) that ranks a list's rows without reading
 *   the float vectors, beside the item's kind and scopes (both fixed for an item's life), so a
 *   list is filtered by the query's lens before anything is scored; the shortlist is rescored
 *   with `item_vectors`.
 *
 * Names start with `_` and export skips them: they are derived from `items` and `item_vectors`,
 * and a restored Context rebuilds them.
 */
export const vectorIndexStep: SchemaMigration = {
  version: 12,
  name: 'row counts by trigger; IVF vector index tables',
  up(sql) {
    sql.exec(`CREATE TABLE _counts (key TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID`);
    sql.exec(`INSERT INTO _counts (key, n) SELECT 'items', COUNT(*) FROM items`);
    sql.exec(`INSERT INTO _counts (key, n)
              SELECT 'vectors:' || model_id, COUNT(*) FROM item_vectors GROUP BY model_id`);
    sql.exec(`CREATE TRIGGER _counts_items_insert AFTER INSERT ON items BEGIN
                UPDATE _counts SET n = n + 1 WHERE key = 'items';
              END`);
    sql.exec(`CREATE TRIGGER _counts_items_delete AFTER DELETE ON items BEGIN
                UPDATE _counts SET n = n - 1 WHERE key = 'items';
              END`);
    sql.exec(`CREATE TRIGGER _counts_vectors_insert AFTER INSERT ON item_vectors BEGIN
                INSERT INTO _counts (key, n) VALUES ('vectors:' || NEW.model_id, 1)
                ON CONFLICT (key) DO UPDATE SET n = n + 1;
              END`);
    sql.exec(`CREATE TRIGGER _counts_vectors_delete AFTER DELETE ON item_vectors BEGIN
                UPDATE _counts SET n = n - 1 WHERE key = 'vectors:' || OLD.model_id;
              END`);
    sql.exec(`CREATE TRIGGER _counts_vectors_model AFTER UPDATE OF model_id ON item_vectors
              WHEN OLD.model_id <> NEW.model_id BEGIN
                UPDATE _counts SET n = n - 1 WHERE key = 'vectors:' || OLD.model_id;
                INSERT INTO _counts (key, n) VALUES ('vectors:' || NEW.model_id, 1)
                ON CONFLICT (key) DO UPDATE SET n = n + 1;
              END`);
    sql.exec(`CREATE TABLE _vector_gens (
      model_id TEXT NOT NULL,
      gen INTEGER NOT NULL,
      dims INTEGER NOT NULL,
      lists INTEGER NOT NULL,
      trained_rows INTEGER NOT NULL,
      next_seq INTEGER NOT NULL,
      end_seq INTEGER NOT NULL,
      PRIMARY KEY (model_id, gen)
    ) WITHOUT ROWID`);
    sql.exec(`CREATE TABLE _vector_lists (
      model_id TEXT NOT NULL,
      gen INTEGER NOT NULL,
      list INTEGER NOT NULL,
      centroid BLOB NOT NULL,
      PRIMARY KEY (model_id, gen, list)
    ) WITHOUT ROWID`);
    sql.exec(`CREATE TABLE _vector_postings (
      model_id TEXT NOT NULL,
      gen INTEGER NOT NULL,
      list INTEGER NOT NULL,
      item_seq INTEGER NOT NULL,
      kind TEXT NOT NULL,
      scopes TEXT NOT NULL,
      code BLOB NOT NULL,
      PRIMARY KEY (model_id, gen, list, item_seq)
    ) WITHOUT ROWID`);
    sql.exec('CREATE UNIQUE INDEX _vector_postings_item ON _vector_postings(item_seq)');
  },
};
