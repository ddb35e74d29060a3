import type { OAuthHelpers } from '@cloudflare/workers-oauth-provider';
import type { AuthContext } from '../auth/principal.ts';
import { MemoryError } from '../errors.ts';
import { assertGrantLive } from './grant-liveness.ts';
import { readCredentialProps } from './props.ts';
import { boundByScope } from './scopes.ts';

/**
 * OAuth access tokens on the REST API. The provider issues `<user id>:<grant id>:<secret>`; an
 * API key is `mem_<kind>_<secret>` and never holds a colon, so the shape of the bearer alone
 * decides which check a request pays for: a key never costs an OAuth lookup.
 */
const ACCESS_TOKEN = /^Bearer\s+([^\s:]+:[^\s:]+:[^\s:]+)\s*$/i;

/** The OAuth access token of an `Authorization` header, or null when it holds anything else. */
export function accessTokenOf(header: string | undefined | null): string | null {
  if (!header) return null;
  return ACCESS_TOKEN.exec(header)?.[1] ?? null;
}

/**
 * The protected resource is the origin itself: its metadata then lives at the bare
 * `/.well-known/oauth-protected-resource`, which every 401 names, and `/mcp` and `/api/v1` are
 * inside it.
 */
export function resourceOf(origin: string): string {
  return `${origin}/`;
}

type EnvWithHelpers = Env & { OAUTH_PROVIDER?: OAuthHelpers };

/** The provider's helpers, when the request came through `withOAuth` on an OAuth origin. */
export function oauthHelpersOf(env: Env): OAuthHelpers | undefined {
  return (env as EnvWithHelpers).OAUTH_PROVIDER;
}

/**
 * The env a REST request carrying an access token is served with: the provider's helpers added,
 * as the provider itself adds them for its own handlers. A copy, so one origin's helpers never
 * stay on the isolate's shared env.
 */
export function withOAuthHelpers(env: Env, helpers: OAuthHelpers): Env {
  const copy: EnvWithHelpers = { ...env, OAUTH_PROVIDER: helpers };
  return copy;
}

function unauthorized(detail: string): MemoryError {
  return new MemoryError({ kind: 'unauthorized', detail });
}

/** A token bound to no audience predates resource binding: the provider's sole resource. */
function boundTo(audience: string | string[] | undefined, resource: string): boolean {
  if (audience === undefined) return true;
  return Array.isArray(audience) ? audience.includes(resource) : audience === resource;
}

/**
 * Resolves an access token issued by this origin's OAuth flow to the grant the person consented
 * to, exactly as `/mcp` does: the consenting key's principal, the chosen Context and per-verb
 * paths, the key's scope floor; only the verbs of the token's scope; 401 when the token is
 * unknown, expired, bound to another resource, or its key has been revoked since.
 */
export async function authenticateAccessToken(
  env: Env,
  token: string,
  resource: string,
): Promise<AuthContext> {
  // Present when `withOAuth` served this request on an OAuth origin (the provider may also have
  // left its own on the isolate's env: the audience check below binds the token to this origin).
  const helpers = oauthHelpersOf(env);
  if (helpers === undefined) {
    throw unauthorized(
      'OAuth access tokens are accepted over HTTPS (or on loopback) only; use an API key here',
    );
  }
  const summary = await helpers.unwrapToken<unknown>(token);
  if (summary === null) throw unauthorized('the access token is unknown or has expired');
  if (!boundTo(summary.audience, resource))
    throw unauthorized('the access token was issued for another resource');
  const props = readCredentialProps(summary.grant.props);
  if (props?.source !== 'oauth') throw unauthorized('the access token carries no memory grant');
  await assertGrantLive(env, props.auth);
  return boundByScope(props.auth, summary.scope);
}
