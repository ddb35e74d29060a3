import type { SchemaMigration } from './types.ts';

/**
 * Items counted by kind, kept by triggers (issue 38): a Context's `usage` read them with
 * `GROUP BY kind` over the whole `items` table, 228 ms at a million facts for every
 * `GET /contexts/{id}` (the console asks it for each row it shows). Additive: `_kind_counts`,
 * filled once here, then one row updated per insert or delete. Derived from `items`: export skips
 * it and a restored Context counts again as its items are written.
 */
export const kindCountsStep: SchemaMigration = {
  version: 15,
  name: 'item counts by kind, by trigger',
  up(sql) {
    sql.exec('CREATE TABLE _kind_counts (kind TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID');
    sql.exec('INSERT INTO _kind_counts (kind, n) SELECT kind, COUNT(*) FROM items GROUP BY kind');
    sql.exec(`CREATE TRIGGER _kind_counts_insert AFTER INSERT ON items BEGIN
                INSERT INTO _kind_counts (kind, n) VALUES (NEW.kind, 1)
                ON CONFLICT (kind) DO UPDATE SET n = n + 1;
              END`);
    sql.exec(`CREATE TRIGGER _kind_counts_delete AFTER DELETE ON items BEGIN
                UPDATE _kind_counts SET n = n - 1 WHERE kind = OLD.kind;
              END`);
    sql.exec(`CREATE TRIGGER _kind_counts_kind AFTER UPDATE OF kind ON items
              WHEN OLD.kind <> NEW.kind BEGIN
                UPDATE _kind_counts SET n = n - 1 WHERE kind = OLD.kind;
                INSERT INTO _kind_counts (kind, n) VALUES (NEW.kind, 1)
                ON CONFLICT (kind) DO UPDATE SET n = n + 1;
              END`);
  },
};
