import type { SchemaMigration } from './types.ts';
import { SCHEMA_MIGRATIONS } from './index.ts';
import { forgetDatabase } from '../forget-database.ts';

const META = `CREATE TABLE IF NOT EXISTS _meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`;

/** The version stamped in `_meta` (0 for a fresh, never-initialised database). */
export function readSchemaVersion(sql: SqlStorage): number {
  sql.exec(META);
  const row = sql
    .exec<{ value: string }>(`SELECT value FROM _meta WHERE key = 'schema_version'`)
    .toArray()[0];
  return row ? Number.parseInt(row.value, 10) : 0;
}

export interface MigrationStep {
  version: number;
  name: string;
}

/**
 * Applies pending migrations up to `target` in order, each in its own transaction together with
 * its stamp, so `schema_version` only ever moves forward and always matches the tables.
 * Returns the steps applied. A failing step throws; earlier steps stay applied.
 */
export function applyMigrations(
  storage: DurableObjectStorage,
  target: number = SCHEMA_MIGRATIONS.length,
  migrations: readonly SchemaMigration[] = SCHEMA_MIGRATIONS,
): MigrationStep[] {
  const applied: MigrationStep[] = [];
  const current = readSchemaVersion(storage.sql);
  for (const m of migrations) {
    if (m.version <= current || m.version > target) continue;
    // A step may rebuild tables (`items_fts` gains a column): what is remembered of them goes.
    forgetDatabase(storage.sql);
    storage.transactionSync(() => {
      m.up(storage.sql);
      storage.sql.exec(
        `INSERT INTO _meta (key, value) VALUES ('schema_version', ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        String(m.version),
      );
    });
    applied.push({ version: m.version, name: m.name });
  }
  return applied;
}
