import type { OAuthHelpers } from '@cloudflare/workers-oauth-provider';
import { hashSecret } from '../auth/bearer.ts';
import { unknownScopes } from './scopes.ts';
import { oauthError } from './throttle.ts';

/**
 * Refresh-token reuse detection (RFC 9700 §4.14.2) in front of the library's token endpoint.
 * The library rotates refresh tokens but keeps the one before the current one valid (a retry
 * allowance), so a stolen, rotated-out token could be replayed again and again, each replay
 * cutting the real client off. Here every refresh token that was exchanged is recorded as
 * retired; presenting a retired one revokes the whole grant (and with it every token issued
 * from it), for the thief and the client alike, who must then ask the person again.
 */
const RETIRED_PREFIX = 'guard:retired-refresh:';

interface TokenRequest {
  grantType: string | null;
  refreshToken: string | null;
  scope: string | null;
}

async function readTokenRequest(request: Request): Promise<TokenRequest> {
  const type = request.headers.get('content-type') ?? '';
  const form = type.includes('application/x-www-form-urlencoded')
    ? new URLSearchParams(await request.clone().text())
    : new URLSearchParams();
  return {
    grantType: form.get('grant_type'),
    refreshToken: form.get('refresh_token'),
    scope: form.get('scope'),
  };
}

/** `<user id>:<grant id>:<secret>`, the library's refresh token format. */
function grantOf(token: string): { userId: string; grantId: string } | null {
  const [userId, grantId, secret, ...rest] = token.split(':');
  if (!userId || !grantId || !secret || rest.length > 0) return null;
  return { userId, grantId };
}

/**
 * POST /oauth/token: refuses unknown scopes, revokes a grant whose retired refresh token comes
 * back, and after a successful refresh retires the token that was spent.
 */
export async function guardTokenRequest(
  request: Request,
  env: Env,
  helpers: OAuthHelpers,
  refreshTtlSeconds: number,
  next: (request: Request) => Promise<Response>,
): Promise<Response> {
  const body = await readTokenRequest(request);
  const unknown = unknownScopes(body.scope);
  if (unknown.length > 0) {
    return oauthError(400, 'invalid_scope', `unknown scope: ${unknown.slice(0, 3).join(', ')}`);
  }
  if (body.grantType !== 'refresh_token' || !body.refreshToken) return next(request);
  const grant = grantOf(body.refreshToken);
  if (!grant) return next(request);
  const retiredKey = `${RETIRED_PREFIX}${await hashSecret(body.refreshToken)}`;
  if ((await env.OAUTH_KV.get(retiredKey)) !== null) {
    await helpers.revokeGrant(grant.grantId, grant.userId);
    return oauthError(
      400,
      'invalid_grant',
      'this refresh token was already used; the grant is revoked, authorize again',
    );
  }
  const res = await next(request);
  if (res.ok) {
    // Kept as long as the token could have lived: a replay after that fails on its own.
    await env.OAUTH_KV.put(retiredKey, `${grant.userId}:${grant.grantId}`, {
      expirationTtl: refreshTtlSeconds,
    });
  }
  return res;
}
