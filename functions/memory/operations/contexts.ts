import { assertContextAccess, assertManagement, assertRootManagement } from '../auth/guards.ts';
import type { AuthContext } from '../auth/principal.ts';
import { recordPurge } from '../jobs/context-purge.ts';
import { failure, MemoryError } from '../errors.ts';
import type { StoreUsage } from '../store/types.ts';
import { saveBackupSetting, type BackupSetting } from './backup-schedule.ts';
import type { ContextRow } from './context-row.ts';
import type { OperationDeps } from './deps.ts';
import { contextSummary, type ContextSummary } from './list-contexts.ts';
import { forgetContextObject, refreshContextObject } from './notify-objects.ts';

export const CONTEXT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
export const RESERVED_NAMESPACE = 'internal';
const NAMESPACE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export type { ContextRow } from './context-row.ts';

export interface ContextView extends ContextSummary {
  usage: StoreUsage & { llm_tokens: number };
}

export interface CreateContextInput {
  id: string;
  token_limit?: number | null | undefined;
  namespace?: string | null | undefined;
}

export interface UpdateContextInput {
  token_limit?: number | null | undefined;
  enforcement_blocked?: boolean | undefined;
  namespace?: string | null | undefined;
  /** A positive byte count, or null to fall back to `MAX_UPLOAD_BYTES`; range-checked by the route. */
  max_upload_bytes?: number | null | undefined;
  /** Scheduled backups: on with a setting, off with null; range-checked by the route. */
  backup?: BackupSetting | null | undefined;
}

function checkNamespace(namespace: string | null | undefined): void {
  if (namespace === null || namespace === undefined) return;
  if (namespace.toLowerCase() === RESERVED_NAMESPACE) {
    throw failure(
      'unprocessable',
      `the namespace "${RESERVED_NAMESPACE}" is reserved and cannot be bound to a Context`,
    );
  }
  if (!NAMESPACE_PATTERN.test(namespace)) {
    throw failure(
      'validation-error',
      'namespace: 1-64 characters of letters, digits, "_", "-" or "."',
    );
  }
}

async function findContext(deps: OperationDeps, id: string): Promise<ContextRow | null> {
  return deps.db.prepare('SELECT * FROM contexts WHERE id = ?').bind(id).first<ContextRow>();
}

/**
 * The Context a data-plane operation acts on: 403 for a key bound to another Context (checked
 * first, so that a key never learns whether another Context exists), 404 when it does not exist.
 */
export async function requireContext(
  deps: OperationDeps,
  auth: AuthContext,
  id: string,
): Promise<ContextRow> {
  assertContextAccess(auth, id);
  const row = await deps.contextRow(id);
  if (!row)
    throw new MemoryError({ kind: 'context-not-found', detail: `Context "${id}" does not exist` });
  return row;
}

async function view(deps: OperationDeps, row: ContextRow): Promise<ContextView> {
  const store = deps.store(row.id);
  // Model tokens are counted by the Context's own object (operations/model-usage.ts).
  const [usage, llmTokens] = await Promise.all([store.usage(), store.modelTokensUsed()]);
  return { ...contextSummary(deps, row), usage: { ...usage, llm_tokens: llmTokens } };
}

/**
 * Creates a Context. `reservedIds` are the path words of the control-plane routes (lower case,
 * derived from the app's routes by the caller): a Context named `keys` would share
 * `/api/v1/keys/...` with the key routes, so such an id is refused, in any letter case.
 */
export async function createContext(
  deps: OperationDeps,
  auth: AuthContext,
  input: CreateContextInput,
  reservedIds: ReadonlySet<string>,
): Promise<ContextView> {
  assertRootManagement(auth);
  if (!CONTEXT_ID_PATTERN.test(input.id)) {
    throw failure(
      'validation-error',
      'id: 1-128 characters of letters, digits, "_", "-" or ".", starting with a letter or digit',
    );
  }
  if (reservedIds.has(input.id.toLowerCase())) {
    throw failure(
      'validation-error',
      `id: "${input.id}" is reserved: /api/v1/${input.id.toLowerCase()}/... is a management route, so no Context can take that name (reserved: ${[...reservedIds].sort().join(', ')}); choose another id`,
    );
  }
  checkNamespace(input.namespace);
  const now = new Date().toISOString();
  const inserted = await deps.db
    .prepare(
      `INSERT INTO contexts (id, namespace, token_limit, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO NOTHING`,
    )
    .bind(input.id, input.namespace ?? null, input.token_limit ?? null, now, now)
    .run();
  if (inserted.meta.changes === 0)
    throw failure('conflict', `a Context with id "${input.id}" already exists`);
  try {
    const version = await deps.store(input.id).initialize();
    await deps.db
      .prepare('UPDATE contexts SET schema_version = ? WHERE id = ?')
      .bind(version, input.id)
      .run();
  } catch (err) {
    // Leave nothing half-created: without its database the registry row would be a lie.
    await deps.db.prepare('DELETE FROM contexts WHERE id = ?').bind(input.id).run();
    throw err;
  }
  const row = await findContext(deps, input.id);
  if (!row) throw failure('internal', 'the Context vanished while it was being created');
  return view(deps, row);
}

export async function getContext(
  deps: OperationDeps,
  auth: AuthContext,
  id: string,
): Promise<ContextView> {
  return view(deps, await requireContext(deps, auth, id));
}

export async function updateContext(
  deps: OperationDeps,
  auth: AuthContext,
  id: string,
  input: UpdateContextInput,
): Promise<ContextView> {
  assertManagement(auth);
  const row = await requireContext(deps, auth, id);
  checkNamespace(input.namespace);
  const next = {
    namespace: input.namespace === undefined ? row.namespace : input.namespace,
    token_limit: input.token_limit === undefined ? row.token_limit : input.token_limit,
    enforcement_blocked:
      input.enforcement_blocked === undefined
        ? row.enforcement_blocked
        : input.enforcement_blocked
          ? 1
          : 0,
    max_upload_bytes:
      input.max_upload_bytes === undefined
        ? (row.max_upload_bytes ?? null)
        : input.max_upload_bytes,
  };
  const now = new Date().toISOString();
  await deps.db
    .prepare(
      'UPDATE contexts SET namespace = ?, token_limit = ?, enforcement_blocked = ?, max_upload_bytes = ?, updated_at = ? WHERE id = ?',
    )
    .bind(
      next.namespace,
      next.token_limit,
      next.enforcement_blocked,
      next.max_upload_bytes,
      now,
      id,
    )
    .run();
  if (input.backup !== undefined) await saveBackupSetting(deps.db, id, input.backup);
  const backup =
    input.backup === undefined
      ? {}
      : {
          backup_every_hours: input.backup?.every_hours ?? null,
          backup_keep: input.backup?.keep ?? null,
        };
  const updated: ContextRow = { ...row, ...next, ...backup, updated_at: now };
  // D1 first (the source of truth), then the Context's object, which answers the data plane.
  await refreshContextObject(deps, updated);
  return view(deps, updated);
}

/**
 * Removes the Context's whole database, its registry row, and revokes its keys. Its documents'
 * files go at the scheduler's next tick; its scheduled backups after 7 days, so an accidental
 * delete can still be restored (`npm run backup -- restore-r2 backups/<id>/latest --as <id>`).
 */
export async function deleteContext(
  deps: OperationDeps,
  auth: AuthContext,
  id: string,
): Promise<void> {
  assertManagement(auth);
  await requireContext(deps, auth, id);
  await deps.store(id).destroy();
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  await deps.db.batch([
    deps.db.prepare('DELETE FROM contexts WHERE id = ?').bind(id),
    deps.db
      .prepare('UPDATE api_keys SET revoked_at = ? WHERE context_id = ? AND revoked_at IS NULL')
      .bind(now, id),
    // Its object and every key copy in it are gone with the database.
    deps.db.prepare('DELETE FROM key_cache_sites WHERE context_id = ?').bind(id),
    // Its files and backups in R2: deleted by the scheduler (jobs/context-purge.ts).
    recordPurge(deps.db, id, nowMs),
  ]);
  await forgetContextObject(deps, id);
}
