import { VERBS, type AuthContext } from '../auth/principal.ts';

const KNOWN: ReadonlySet<string> = new Set(VERBS);

/**
 * The scopes of a space-separated OAuth `scope` value this server does not know. OAuth 2.1
 * §3.2.2.1 lets a server ignore them, but a client asking for a scope that does not exist is
 * better told (`invalid_scope`) than handed a token that silently lacks it.
 */
export function unknownScopes(scope: string | null | undefined): string[] {
  if (scope === null || scope === undefined) return [];
  return scope
    .split(' ')
    .filter((s) => s !== '')
    .filter((s) => !KNOWN.has(s));
}

/**
 * The grant an access token may use: the consent's per-verb paths, with every verb the token's
 * OAuth `scope` lacks emptied. The consent page grants exactly the verbs with paths, so the two
 * agree on a fresh token; a token refreshed with a narrower `scope` (RFC 6749 §6) keeps the
 * grant's props but not the verbs it gave up.
 */
export function boundByScope(auth: AuthContext, scope: readonly string[]): AuthContext {
  const grants = { ...auth.key.grants };
  for (const verb of VERBS) if (!scope.includes(verb)) grants[verb] = [];
  return { principal: auth.principal, key: { ...auth.key, grants } };
}
