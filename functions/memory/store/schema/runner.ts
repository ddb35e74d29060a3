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

/** Rows one piece of a step's `fill` covers: each piece is one transaction. */
export const FILL_PIECE = 2_000;

export interface MigrationRun {
  applied: MigrationStep[];
  /** A step's `fill` stopped at the row budget; the next call goes on from where it stopped. */
  pending: boolean;
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
  return migrateInPieces(storage, target, migrations, Number.POSITIVE_INFINITY).applied;
}

/**
 * `applyMigrations` that stops once the steps' `fill` pieces have covered `rowBudget` rows, so
 * one call stays within a request's CPU and memory at any size of Context (docs/scale.md): at a
 * million facts, step 10 in one transaction took 39 s and held every row in memory (448 MiB).
 * Where a step's fill stands is kept in `_meta.filling` (`<version>:<cursor>`), written in each
 * piece's transaction, so a call that stops, or fails, goes on from the last piece done.
 */
export function migrateInPieces(
  storage: DurableObjectStorage,
  target: number,
  migrations: readonly SchemaMigration[],
  rowBudget: number,
): MigrationRun {
  const sql = storage.sql;
  const applied: MigrationStep[] = [];
  const current = readSchemaVersion(sql);
  let budget = rowBudget;
  for (const m of migrations) {
    if (m.version <= current || m.version > target) continue;
    // A step may rebuild tables (`items_fts` gains a column): what is remembered of them goes.
    forgetDatabase(sql);
    const fill = m.fill;
    if (!fill) {
      storage.transactionSync(() => {
        m.up(sql);
        stamp(sql, m.version);
      });
      applied.push({ version: m.version, name: m.name });
      continue;
    }
    let after = fillingAfter(sql, m.version);
    if (after === null) {
      storage.transactionSync(() => {
        m.up(sql);
        setFilling(sql, m.version, '');
      });
      after = '';
    }
    for (let from: string | null = after; from !== null;) {
      if (budget <= 0) return { applied, pending: true };
      const rows = Math.min(FILL_PIECE, budget);
      const start = from;
      from = storage.transactionSync(() => {
        const next = fill(sql, start, rows);
        if (next === null) {
          sql.exec(`DELETE FROM _meta WHERE key = 'filling'`);
          stamp(sql, m.version);
        } else setFilling(sql, m.version, next);
        return next;
      });
      budget -= rows;
      // The piece rewrote rows whose derived state may be remembered (postings, counts).
      forgetDatabase(sql);
    }
    applied.push({ version: m.version, name: m.name });
  }
  return { applied, pending: false };
}

function stamp(sql: SqlStorage, version: number): void {
  sql.exec(
    `INSERT INTO _meta (key, value) VALUES ('schema_version', ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    String(version),
  );
}

/**
 * The version whose rows a `fill` is still rewriting, or null. An export waits for it: its
 * header would name the version before the step while a table the step made (step 13's
 * `item_aliases`) is already there, and no Context at that version could take it in.
 */
export function stepUnderway(sql: SqlStorage): number | null {
  readSchemaVersion(sql);
  return filling(sql)?.version ?? null;
}

/** Where a step's fill stands: null when it has not started (or another step's is recorded). */
function fillingAfter(sql: SqlStorage, version: number): string | null {
  const underway = filling(sql);
  return underway?.version === version ? underway.after : null;
}

/** `_meta.filling` (`<version>:<cursor>`) read, or null when no step is filling. */
function filling(sql: SqlStorage): { version: number; after: string } | null {
  const value = sql
    .exec<{ value: string }>(`SELECT value FROM _meta WHERE key = 'filling'`)
    .toArray()[0]?.value;
  const colon = value?.indexOf(':') ?? -1;
  if (value === undefined || colon < 0) return null;
  const version = Number.parseInt(value.slice(0, colon), 10);
  return Number.isInteger(version) ? { version, after: value.slice(colon + 1) } : null;
}

function setFilling(sql: SqlStorage, version: number, after: string): void {
  sql.exec(
    `INSERT INTO _meta (key, value) VALUES ('filling', ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    `${version}:${after}`,
  );
}
