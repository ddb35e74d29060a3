import { assertManagement } from '../auth/guards.ts';
import type { AuthContext } from '../auth/principal.ts';
import { uploadLimit } from '../documents/upload-limit.ts';
import { backupSettingOf, type BackupSetting } from './backup-schedule.ts';
import type { ContextRow } from './context-row.ts';
import type { OperationDeps } from './deps.ts';
import { decodeIdCursor, pageOf } from './id-cursor.ts';

/**
 * A Context as the list shows it: its registry row only. Usage counts are left out on purpose:
 * they live in each Context's own object, so a page of 100 would be 100 calls; `GET
 * /contexts/{id}` has them for one Context.
 */
export interface ContextSummary {
  id: string;
  schema_version: number;
  enforcement_blocked: boolean;
  token_limit: number | null;
  namespace: string | null;
  max_upload_bytes: number;
  backup: BackupSetting | null;
  created_at: string;
  updated_at: string;
}

/** The registry row as the API shows it (also the head of `GET /contexts/{id}`). */
export function contextSummary(deps: OperationDeps, row: ContextRow): ContextSummary {
  return {
    id: row.id,
    schema_version: row.schema_version,
    enforcement_blocked: row.enforcement_blocked === 1,
    token_limit: row.token_limit,
    namespace: row.namespace,
    max_upload_bytes: uploadLimit(row, deps.env.MAX_UPLOAD_BYTES),
    backup: backupSettingOf(row),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export interface ListContextsInput {
  cursor: string | null;
  limit: number;
}

/**
 * The Contexts a management key may administer, by id: every one for a root key, its own for a
 * key bound to one Context (a tenant never learns which other Contexts exist).
 */
export async function listContexts(
  deps: OperationDeps,
  auth: AuthContext,
  input: ListContextsInput,
): Promise<{ contexts: ContextSummary[]; next_cursor: string | null }> {
  assertManagement(auth);
  const after = input.cursor === null ? '' : decodeIdCursor(input.cursor);
  const bound = auth.key.contextId;
  const { results } = await (
    bound === null
      ? deps.db
          .prepare('SELECT * FROM contexts WHERE id > ? ORDER BY id LIMIT ?')
          .bind(after, input.limit + 1)
      : deps.db
          .prepare('SELECT * FROM contexts WHERE id = ? AND id > ? LIMIT ?')
          .bind(bound, after, input.limit + 1)
  ).all<ContextRow>();
  const page = pageOf(results, input.limit);
  return {
    contexts: page.rows.map((row) => contextSummary(deps, row)),
    next_cursor: page.next_cursor,
  };
}
