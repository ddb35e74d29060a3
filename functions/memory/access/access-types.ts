import type { Grants, PrincipalKind } from '../auth/principal.ts';

/**
 * What the Worker sends the Context's object instead of a key: the kind the secret claims and
 * the SHA-256 of the secret. The secret itself never leaves the Worker.
 */
export interface Credential {
  kind: PrincipalKind;
  hash: string;
}

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
