import type { AuthContext } from '../auth/principal.ts';
import { unwrap } from '../errors.ts';
import { requireContext } from './contexts.ts';
import type { OperationDeps } from './deps.ts';

/** The whole Context database as NDJSON (store/context-export.ts describes the format). */
export async function exportContext(
  deps: OperationDeps,
  auth: AuthContext,
  id: string,
): Promise<string> {
  await requireContext(deps, auth, id);
  return deps.store(id).exportNdjson(id);
}

export interface ImportResult {
  context_id: string;
  schema_version: number;
  rows: number;
}

/**
 * Replays an export into an existing, empty Context (409 otherwise; 400 for a malformed export,
 * leaving the Context as it was). The registry gets the restored version, which may be older
 * than the latest: the scheduler then migrates it like any other Context.
 */
export async function importContext(
  deps: OperationDeps,
  auth: AuthContext,
  id: string,
  ndjson: string,
): Promise<ImportResult> {
  await requireContext(deps, auth, id);
  const result = unwrap(await deps.store(id).importNdjson(ndjson));
  await deps.db
    .prepare('UPDATE contexts SET schema_version = ?, updated_at = ? WHERE id = ?')
    .bind(result.schema_version, new Date().toISOString(), id)
    .run();
  return { context_id: id, ...result };
}
