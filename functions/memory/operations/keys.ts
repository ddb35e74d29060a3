import { assertContextAccess, assertManagement, assertRootManagement } from '../auth/guards.ts';
import { hashSecret, newKeySecret } from '../auth/bearer.ts';
import type { AuthContext, Grants, PrincipalKind } from '../auth/principal.ts';
import { failure, MemoryError } from '../errors.ts';
import { scopePathProblem } from '../scopes/path.ts';
import { newId } from '../store/ids.ts';
import type { OperationDeps } from './deps.ts';
import { forgetKeysEverywhere } from './notify-objects.ts';
import { findVisiblePrincipal } from './principals.ts';

export interface KeyView {
  id: string;
  principal_id: string;
  /** null: an unbound (root) management key. */
  context_id: string | null;
  kind: PrincipalKind;
  prefix: string;
  grants: Grants;
  scope_floor: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface CreateKeyInput {
  principal_id: string;
  /** null issues an unbound (root) management key: root callers, management principals only. */
  context_id: string | null;
  grants: Partial<Grants>;
  scope_floor?: string | null | undefined;
}

function checkGrants(grants: Partial<Grants>, floor: string | null): Grants {
  const full: Grants = {
    'memory:read': grants['memory:read'] ?? [],
    'memory:write': grants['memory:write'] ?? [],
    'memory:forget': grants['memory:forget'] ?? [],
  };
  for (const [verb, paths] of Object.entries(full)) {
    for (const path of paths) {
      const problem = scopePathProblem(path);
      if (problem) throw failure('validation-error', `grants.${verb}: ${problem}`);
    }
  }
  if (floor !== null) {
    const problem = scopePathProblem(floor);
    if (problem) throw failure('validation-error', `scope_floor: ${problem}`);
  }
  return full;
}

/** Issues a key for a principal and a Context; the secret is in the answer once and never again. */
export async function createKey(
  deps: OperationDeps,
  auth: AuthContext,
  input: CreateKeyInput,
): Promise<KeyView & { key: string }> {
  if (input.context_id === null) assertRootManagement(auth);
  else {
    assertManagement(auth);
    assertContextAccess(auth, input.context_id);
  }
  const floor = input.scope_floor ?? null;
  const grants = checkGrants(input.grants, floor);
  // A Context-bound management key mints only for principals of its own tenant; another
  // tenant's principal reads exactly like one that does not exist.
  const principal = await findVisiblePrincipal(deps, auth, input.principal_id);
  if (!principal) throw failure('not-found', `principal ${input.principal_id} does not exist`);
  if (input.context_id === null) {
    if (principal.kind !== 'management')
      throw failure(
        'validation-error',
        'context_id: only a management principal may hold an unbound key; name the Context for agent and supervisor keys',
      );
  } else {
    const context = await deps.db
      .prepare('SELECT id FROM contexts WHERE id = ?')
      .bind(input.context_id)
      .first();
    if (!context)
      throw new MemoryError({
        kind: 'context-not-found',
        detail: `Context "${input.context_id}" does not exist`,
      });
  }
  const secret = newKeySecret(principal.kind);
  const view: KeyView = {
    id: newId('key'),
    principal_id: input.principal_id,
    context_id: input.context_id,
    kind: principal.kind,
    prefix: secret.slice(0, `mem_${principal.kind}_`.length + 4),
    grants,
    scope_floor: floor,
    created_at: new Date().toISOString(),
    revoked_at: null,
  };
  await deps.db
    .prepare(
      `INSERT INTO api_keys (id, principal_id, context_id, hash, prefix, grants, scope_floor, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      view.id,
      view.principal_id,
      view.context_id,
      await hashSecret(secret),
      view.prefix,
      JSON.stringify(grants),
      floor,
      view.created_at,
    )
    .run();
  return { ...view, key: secret };
}

/** A key with its principal's kind, as `KEY_VIEW_SELECT` reads it (never its hash). */
export interface KeyViewRow {
  id: string;
  principal_id: string;
  context_id: string | null;
  kind: PrincipalKind;
  prefix: string;
  grants: string;
  scope_floor: string | null;
  created_at: string;
  revoked_at: string | null;
}

/** The columns of a `KeyView`, with the principal's kind; callers add WHERE and ORDER BY. */
export const KEY_VIEW_SELECT = `SELECT k.id, k.principal_id, k.context_id, p.kind, k.prefix, k.grants,
       k.scope_floor, k.created_at, k.revoked_at
  FROM api_keys k JOIN principals p ON p.id = k.principal_id`;

export function keyViewOf(row: KeyViewRow): KeyView {
  return { ...row, grants: JSON.parse(row.grants) as Grants };
}

/** A key the caller may manage; a key of another Context reads as absent (no existence oracle). */
async function manageableKey(
  deps: OperationDeps,
  auth: AuthContext,
  id: string,
): Promise<KeyViewRow> {
  assertManagement(auth);
  const row = await deps.db
    .prepare(`${KEY_VIEW_SELECT} WHERE k.id = ?`)
    .bind(id)
    .first<KeyViewRow>();
  if (!row || (auth.key.contextId !== null && auth.key.contextId !== row.context_id))
    throw failure('not-found', `key ${id} does not exist`);
  return row;
}

/**
 * Revokes a key: the next request with it is 401, whichever Context objects had cached it (they
 * are told after D1 changed). Revoking twice is harmless.
 */
export async function revokeKey(deps: OperationDeps, auth: AuthContext, id: string): Promise<void> {
  await manageableKey(deps, auth, id);
  await deps.db
    .prepare('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?')
    .bind(new Date().toISOString(), id)
    .run();
  await forgetKeysEverywhere(deps, [id]);
}

export interface UpdateKeyInput {
  /** Replaces the grants; a verb left out grants nothing. */
  grants?: Partial<Grants> | undefined;
  /** A new floor, or null for none. */
  scope_floor?: string | null | undefined;
}

/**
 * Changes a key's grants or scope floor in place (the secret stays the same). Takes effect on the
 * next request: every Context object that cached the key is told to forget it.
 */
export async function updateKey(
  deps: OperationDeps,
  auth: AuthContext,
  id: string,
  input: UpdateKeyInput,
): Promise<KeyView> {
  const row = await manageableKey(deps, auth, id);
  if (row.revoked_at !== null) throw failure('conflict', `key ${id} is revoked; issue a new one`);
  const floor = input.scope_floor === undefined ? row.scope_floor : input.scope_floor;
  const grants = checkGrants(input.grants ?? (JSON.parse(row.grants) as Grants), floor);
  await deps.db
    .prepare('UPDATE api_keys SET grants = ?, scope_floor = ? WHERE id = ?')
    .bind(JSON.stringify(grants), floor, id)
    .run();
  await forgetKeysEverywhere(deps, [id]);
  return { ...keyViewOf(row), grants, scope_floor: floor };
}
