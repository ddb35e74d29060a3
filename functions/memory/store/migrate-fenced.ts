import { checkFence } from './fencing.ts';
import { SCHEMA_MIGRATIONS } from './schema/index.ts';
import { migrateInPieces, readSchemaVersion, type MigrationStep } from './schema/runner.ts';

export type FencedMigration =
  | { ok: true; version: number; applied: MigrationStep[]; pending: boolean }
  | { ok: false; version: number; error: string };

/**
 * Rows of a step's fill one migration call covers (schema/types.ts `fill`): about 2 s of a
 * request's CPU for the heaviest step so far (step 10, 39 us a row), in pieces of 2,000 rows.
 * `pending` says more is left; the `context_migrate` job goes on in a successor.
 */
export const MIGRATION_ROWS_PER_CALL = 50_000;

/**
 * The migration path a `context_migrate` job takes: refused outright when `token` is lower than
 * a fencing token this store has already seen (its lease expired and someone else holds it now),
 * otherwise each pending step in its own transaction, stamped monotonically by the runner, a
 * step that rewrites every row in pieces up to `MIGRATION_ROWS_PER_CALL` rows a call.
 * A failing step is reported, not thrown: the steps (and pieces) before it stay applied.
 */
export function migrateFenced(
  storage: DurableObjectStorage,
  token: number,
  target: number,
  rowBudget: number = MIGRATION_ROWS_PER_CALL,
): FencedMigration {
  const fence = checkFence(storage.sql, token);
  if (!fence.ok) {
    return {
      ok: false,
      version: readSchemaVersion(storage.sql),
      error: `stale fencing token ${token}: this Context has already accepted token ${fence.highest}`,
    };
  }
  try {
    const run = migrateInPieces(storage, target, SCHEMA_MIGRATIONS, rowBudget);
    return { ok: true, version: readSchemaVersion(storage.sql), ...run };
  } catch (err) {
    const version = readSchemaVersion(storage.sql);
    const detail = err instanceof Error ? err.message : String(err);
    return { ok: false, version, error: `schema migration V${version + 1} failed: ${detail}` };
  }
}
