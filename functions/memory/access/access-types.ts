import type { AuthContext, Grants, PrincipalKind } from '../auth/principal.ts';

/**
 * What the Worker sends the Context's object instead of a key: the kind the secret claims and
 * the SHA-256 of the secret. The secret itself never leaves the Worker.
 */
export interface KeyCredential {
  kind: PrincipalKind;
  hash: string;
}

/**
 * An OAuth access token, already resolved by the Worker (oauth/access-token.ts: the provider's
 * KV record, its key not revoked): the grant its consent gave. Only the Worker can call the
 * object, so the object takes it as it is and checks the Context it names.
 */
export interface OAuthCredential {
  oauth: AuthContext;
}

export type Credential = KeyCredential | OAuthCredential;

/** One API key as the object caches it: the D1 row of `api_keys` joined with its principal. */
export interface KeyEntry {
  keyId: string;
  hash: string;
  /** null: an unbound (root) management key. */
  contextId: string | null;
  grants: Grants;
  scopeFloor: string | null;
  revoked: boolean;
  principalId: string;
  principalKind: PrincipalKind;
  displayName: string;
}

/** How long a cached answer is trusted without a control-plane notification (see hot-path.md). */
export const KEY_TTL_MS = 10 * 60_000;
/** An unknown key or Context is remembered briefly, so a stream of bad keys costs D1 little. */
export const NEGATIVE_TTL_MS = 30_000;
