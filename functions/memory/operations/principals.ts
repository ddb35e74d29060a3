import { assertManagement } from '../auth/guards.ts';
import type { AuthContext, PrincipalKind } from '../auth/principal.ts';
import { failure } from '../errors.ts';
import { newId } from '../store/ids.ts';
import type { OperationDeps } from './deps.ts';
import { forgetKeysEverywhere } from './notify-objects.ts';

export interface PrincipalView {
  id: string;
  kind: PrincipalKind;
  display_name: string;
  external_id: string | null;
  /** The Context whose bound management key created it; null for the deployment (root). */
  owner_context_id: string | null;
  created_at: string;
}

export interface CreatePrincipalInput {
  kind: PrincipalKind;
  display_name: string;
  external_id?: string | undefined;
}

export const PRINCIPAL_COLUMNS =
  'p.id, p.kind, p.display_name, p.external_id, p.owner_context_id, p.created_at';

/** The tenancy rule of a key bound to Context `?2`: principals it owns or that hold a key in it. */
export const VISIBLE_TO_TENANT = `(p.owner_context_id = ?2
   OR EXISTS (SELECT 1 FROM api_keys k WHERE k.principal_id = p.id AND k.context_id = ?2))`;

/**
 * The principals a management key may see: every one for a root key; for a key bound to
 * Context C, those C owns and those holding a key in C (docs/security.md, tenancy). Anything
 * else reads as absent, so a look-up never tells one tenant about another's principals.
 */
export async function findVisiblePrincipal(
  deps: OperationDeps,
  auth: AuthContext,
  id: string,
): Promise<PrincipalView | null> {
  const tenant = auth.key.contextId;
  if (tenant === null) {
    return deps.db
      .prepare(`SELECT ${PRINCIPAL_COLUMNS} FROM principals p WHERE p.id = ?`)
      .bind(id)
      .first<PrincipalView>();
  }
  return deps.db
    .prepare(
      `SELECT ${PRINCIPAL_COLUMNS} FROM principals p
        WHERE p.id = ?1 AND ${VISIBLE_TO_TENANT}`,
    )
    .bind(id, tenant)
    .first<PrincipalView>();
}

/** The caller's own external ids: create-or-get never reaches another owner's principals. */
async function findByExternalId(
  deps: OperationDeps,
  owner: string | null,
  externalId: string,
): Promise<PrincipalView | null> {
  return deps.db
    .prepare(
      `SELECT ${PRINCIPAL_COLUMNS} FROM principals p
        WHERE p.external_id = ? AND COALESCE(p.owner_context_id, '') = ?`,
    )
    .bind(externalId, owner ?? '')
    .first<PrincipalView>();
}

/**
 * Create, or get by `external_id`: `created` tells the route whether to answer 201 or 200.
 * The new principal belongs to the caller's tenant: the Context its management key is bound to,
 * or the deployment for a root key. Names and external ids are unique per owner only.
 */
export async function createPrincipal(
  deps: OperationDeps,
  auth: AuthContext,
  input: CreatePrincipalInput,
): Promise<{ created: boolean; principal: PrincipalView }> {
  assertManagement(auth);
  const owner = auth.key.contextId;
  if (input.external_id !== undefined) {
    const existing = await findByExternalId(deps, owner, input.external_id);
    if (existing) return { created: false, principal: existing };
  }
  const principal: PrincipalView = {
    id: newId('principal'),
    kind: input.kind,
    display_name: input.display_name,
    external_id: input.external_id ?? null,
    owner_context_id: owner,
    created_at: new Date().toISOString(),
  };
  const result = await deps.db
    .prepare(
      `INSERT INTO principals (id, kind, display_name, external_id, owner_context_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    )
    .bind(
      principal.id,
      principal.kind,
      principal.display_name,
      principal.external_id,
      principal.owner_context_id,
      principal.created_at,
    )
    .run();
  if (result.meta.changes === 0) {
    // Lost a race on external_id, or the display name is taken, both within the caller's own
    // tenant (the unique indexes are per owner): the body names nothing the caller did not send.
    if (input.external_id !== undefined) {
      const raced = await findByExternalId(deps, owner, input.external_id);
      if (raced) return { created: false, principal: raced };
    }
    throw failure(
      'conflict',
      'display_name is already taken by another principal of this tenant; choose another name',
    );
  }
  return { created: true, principal };
}

export async function getPrincipal(
  deps: OperationDeps,
  auth: AuthContext,
  id: string,
): Promise<PrincipalView> {
  assertManagement(auth);
  const row = await findVisiblePrincipal(deps, auth, id);
  if (!row) throw failure('not-found', `principal ${id} does not exist`);
  return row;
}

/**
 * Deletes a principal with its keys, then tells every Context object that cached one of them:
 * the next request with any of its keys is 401. A key bound to one Context deletes only a
 * principal of its own tenant whose keys are all in that Context (403 when it holds keys in
 * another; another tenant's principal reads as absent, 404).
 */
export async function deletePrincipal(
  deps: OperationDeps,
  auth: AuthContext,
  id: string,
): Promise<void> {
  assertManagement(auth);
  const principal = await findVisiblePrincipal(deps, auth, id);
  if (!principal) throw failure('not-found', `principal ${id} does not exist`);
  const { results } = await deps.db
    .prepare('SELECT id, context_id FROM api_keys WHERE principal_id = ?')
    .bind(id)
    .all<{ id: string; context_id: string | null }>();
  const tenant = auth.key.contextId;
  if (tenant !== null && results.some((k) => k.context_id !== tenant)) {
    throw failure(
      'forbidden',
      'this principal holds keys outside this Context; delete it with an unbound (root) management key',
    );
  }
  const keyIds = results.map((k) => k.id);
  await deps.db.batch([
    deps.db.prepare('DELETE FROM api_keys WHERE principal_id = ?').bind(id),
    deps.db.prepare('DELETE FROM principals WHERE id = ?').bind(id),
  ]);
  await forgetKeysEverywhere(deps, keyIds);
}
