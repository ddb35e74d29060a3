import type { Context } from 'hono';
import { MemoryError } from '../errors.ts';
import type { MemoryEnv } from '../hono-env.ts';
import { checkPaths } from '../scopes/grants.ts';
import { lensFromGrant, lensPaths, parseLens, type Lens, type LensInput } from '../scopes/lens.ts';
import { isOAuthGrant, type AuthContext, type Verb } from './principal.ts';

/** The authenticated caller of a route behind the auth middleware. */
export function principalOf(c: Context<MemoryEnv>): AuthContext {
  return c.get('auth');
}

/**
 * 403 unless the caller is a management principal holding a management key. An OAuth access
 * token carries memory scopes only (`memory:read`, `:write`, `:forget`: the consent page grants
 * nothing else, and `/mcp` has no management tool), so a management principal's token is refused
 * here too: keys, principals and Context settings need the key itself.
 */
export function assertManagement(auth: AuthContext): void {
  if (isOAuthGrant(auth.key)) {
    throw new MemoryError({
      kind: 'forbidden',
      detail:
        'this operation needs a management key; an OAuth access token carries memory scopes only (memory:read, memory:write, memory:forget)',
    });
  }
  if (auth.principal.kind !== 'management') {
    throw new MemoryError({
      kind: 'forbidden',
      detail: `this operation needs a management key; the key belongs to a ${auth.principal.kind} principal`,
    });
  }
}

export function requireManagement(c: Context<MemoryEnv>): AuthContext {
  const auth = principalOf(c);
  assertManagement(auth);
  return auth;
}

/**
 * 403 unless the caller holds an unbound (root) management key: deployment-wide operations
 * (creating Contexts, the migration and dead-letter views) would let a key bound to one Context
 * squat ids or read other tenants' state (docs/security.md, tenancy).
 */
export function assertRootManagement(auth: AuthContext): void {
  assertManagement(auth);
  if (auth.key.contextId !== null) {
    throw new MemoryError({
      kind: 'forbidden',
      detail:
        'this operation needs an unbound (root) management key; this management key is bound to one Context',
    });
  }
}

export function requireRootManagement(c: Context<MemoryEnv>): AuthContext {
  const auth = principalOf(c);
  assertRootManagement(auth);
  return auth;
}

/** 403 when the key is bound to another Context (the bootstrap key reaches every Context). */
export function assertContextAccess(auth: AuthContext, contextId: string): void {
  if (auth.key.contextId !== null && auth.key.contextId !== contextId) {
    throw new MemoryError({ kind: 'forbidden', detail: 'this key is not valid for this Context' });
  }
}

/**
 * The lens a read or write may use: the requested one checked against the key's grant for the
 * verb (403) and scope floor (400), or the whole grant when none is requested.
 */
export function resolveLens(auth: AuthContext, verb: Verb, requested: LensInput | undefined): Lens {
  if (requested === undefined) {
    const granted = auth.key.grants[verb];
    if (granted.length === 0) {
      throw new MemoryError({ kind: 'forbidden', detail: `this key has no ${verb} grant` });
    }
    return lensFromGrant(granted);
  }
  const parsed = parseLens(requested);
  if ('problem' in parsed)
    throw new MemoryError({ kind: 'validation-error', detail: parsed.problem });
  const problem = checkPaths(auth.key, verb, lensPaths(parsed.lens));
  if (problem) throw new MemoryError(problem);
  return parsed.lens;
}

/** Route helper: Context binding plus lens resolution, for a Context in the path. */
export function authorizeLens(
  c: Context<MemoryEnv>,
  contextId: string,
  verb: Verb,
  requested: LensInput | undefined,
): Lens {
  const auth = principalOf(c);
  assertContextAccess(auth, contextId);
  return resolveLens(auth, verb, requested);
}
