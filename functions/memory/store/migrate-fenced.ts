import { checkFence } from './fencing.ts';
import { applyMigrations, readSchemaVersion, type MigrationStep } from './schema/runner.ts';

export type FencedMigration =
  | { ok: true; version: number; applied: MigrationStep[] }
  | { ok: false; version: number; error: string };

/**
 * The migration path a `context_migrate` job takes: refused outright when `token` is lower than
 * a fencing token this store has already seen (its lease expired and someone else holds it now),
 * otherwise each pending step in its own transaction, stamped monotonically by the runner.
 * A failing step is reported, not thrown: the steps before it stay applied and stamped.
 */
export function migrateFenced(
  storage: DurableObjectStorage,
  token: number,
  target: number,
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
    const applied = applyMigrations(storage, target);
    return { ok: true, version: readSchemaVersion(storage.sql), applied };
  } catch (err) {
    const version = readSchemaVersion(storage.sql);
    const detail = err instanceof Error ? err.message : String(err);
    return { ok: false, version, error: `schema migration V${version + 1} failed: ${detail}` };
  }
}
