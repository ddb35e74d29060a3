/** Who is calling, as established by a bearer key. Plain data: it crosses RPC and MCP unchanged. */
export type PrincipalKind = 'agent' | 'supervisor' | 'management';
export const PRINCIPAL_KINDS = ['agent', 'supervisor', 'management'] as const;

export type Verb = 'memory:read' | 'memory:write' | 'memory:forget';
export const VERBS = ['memory:read', 'memory:write', 'memory:forget'] as const;

/** Scope paths granted per verb; an empty list grants nothing for that verb. */
export type Grants = Record<Verb, string[]>;

export interface Principal {
  id: string;
  kind: PrincipalKind;
  displayName: string;
}

export interface KeyGrant {
  /** `api_keys.id`, or `bootstrap` for the `MEMORY_BOOTSTRAP_KEY`. */
  keyId: string;
  /**
   * The one Context this key may touch; null for a root management key (the bootstrap key, or a
   * management key issued unbound by a root key), which reaches every Context.
   */
  contextId: string | null;
  grants: Grants;
  /** The narrowest scope the key may ask for; a path strictly below it is 400. */
  scopeFloor: string | null;
}

export interface AuthContext {
  principal: Principal;
  key: KeyGrant;
}

/**
 * Key ids of OAuth grants are `oauth:<id of the key the person pasted on the consent page>`:
 * the grant is a narrowed copy of that key, never the key itself.
 */
export const OAUTH_KEY_PREFIX = 'oauth:';

/** Whether a grant came from an OAuth access token rather than an API key. */
export function isOAuthGrant(key: KeyGrant): boolean {
  return key.keyId.startsWith(OAUTH_KEY_PREFIX);
}
