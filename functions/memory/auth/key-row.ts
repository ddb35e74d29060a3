import { ROOT_SCOPE } from '../scopes/path.ts';
import type { AuthContext, Grants, PrincipalKind } from './principal.ts';

/**
 * A key with its principal as D1 holds them: the one read both key checks make (the Worker's
 * `authenticate` for `/mcp` and the control plane, the Context object's `checkAccess` for the
 * data plane), so a column added to one cannot be missed by the other.
 */
export interface KeyRow {
  id: string;
  hash: string;
  /** null: an unbound (root) management key. */
  context_id: string | null;
  grants: string;
  scope_floor: string | null;
  revoked_at: string | null;
  principal_id: string;
  principal_kind: PrincipalKind;
  display_name: string;
}

/** Selects a `KeyRow` by the key's hash (one bound parameter). */
export const KEY_ROW_BY_HASH = `SELECT k.id, k.hash, k.context_id, k.grants, k.scope_floor, k.revoked_at,
        p.id AS principal_id, p.kind AS principal_kind, p.display_name
   FROM api_keys k JOIN principals p ON p.id = k.principal_id
  WHERE k.hash = ?`;

const FULL_GRANTS: Grants = {
  'memory:read': [ROOT_SCOPE],
  'memory:write': [ROOT_SCOPE],
  'memory:forget': [ROOT_SCOPE],
};

/** Who the bootstrap management key (`MEMORY_BOOTSTRAP_KEY`) stands for. */
export const BOOTSTRAP_AUTH: AuthContext = {
  principal: { id: 'bootstrap', kind: 'management', displayName: 'bootstrap' },
  key: { keyId: 'bootstrap', contextId: null, grants: FULL_GRANTS, scopeFloor: null },
};
