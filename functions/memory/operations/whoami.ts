import type { AuthContext, Grants, PrincipalKind } from '../auth/principal.ts';
import { lensFromGrant, type Lens } from '../scopes/lens.ts';

/** What a key is and may do, as `GET /api/v1/whoami` tells its holder. */
export interface WhoAmI {
  key_id: string;
  principal: { id: string; kind: PrincipalKind; display_name: string };
  /** The one Context the key may touch; null for a root management key, which reaches all. */
  context_id: string | null;
  /** True for an unbound management key: it may list and create Contexts. */
  root: boolean;
  grants: Grants;
  scope_floor: string | null;
  /** The lens a read without one uses: the read grant in disjunctive normal form. */
  read_lens: Lens;
}

/**
 * The caller's own key, read back: nothing it could not already tell from its grants, which is
 * why any valid key may ask (no management scope). The console's sign-in shows it.
 */
export function whoAmI(auth: AuthContext): WhoAmI {
  return {
    key_id: auth.key.keyId,
    principal: {
      id: auth.principal.id,
      kind: auth.principal.kind,
      display_name: auth.principal.displayName,
    },
    context_id: auth.key.contextId,
    root: auth.principal.kind === 'management' && auth.key.contextId === null,
    grants: auth.key.grants,
    scope_floor: auth.key.scopeFloor,
    read_lens: lensFromGrant(auth.key.grants['memory:read']),
  };
}
