import { VERBS } from '../auth/principal.ts';

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
