import { assertContextAccess, assertManagement, assertRootManagement } from '../auth/guards.ts';
import { hashSecret, newKeySecret } from '../auth/bearer.ts';
import type { AuthContext, Grants, PrincipalKind } from '../auth/principal.ts';
import { failure, MemoryError } from '../errors.ts';
import { scopePathProblem } from '../scopes/path.ts';
import { newId } from '../store/ids.ts';
import type { OperationDeps } from './deps.ts';
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

/** Revokes a key: every later request with it is 401. Revoking twice is harmless. */
export async function revokeKey(deps: OperationDeps, auth: AuthContext, id: string): Promise<void> {
  assertManagement(auth);
  const row = await deps.db
    .prepare('SELECT context_id FROM api_keys WHERE id = ?')
    .bind(id)
    .first<{ context_id: string | null }>();
  // A key of another Context reads as absent to a bound management key: no existence oracle.
  if (!row || (auth.key.contextId !== null && auth.key.contextId !== row.context_id))
    throw failure('not-found', `key ${id} does not exist`);
  await deps.db
    .prepare('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?')
    .bind(new Date().toISOString(), id)
    .run();
}
