import { exports } from 'cloudflare:workers';
import { expect } from 'vitest';

// Runs the whole OAuth 2.1 flow (register, consent with a key, code exchange with PKCE) to get an
// access token for /mcp and /api/v1. OAuth needs a loopback (or https) origin.
export const OAUTH_ORIGIN = 'http://127.0.0.1:8787';
const REDIRECT = 'http://127.0.0.1:9/callback';

function at(path: string, init: RequestInit): Promise<Response> {
  return exports.default.fetch(`${OAUTH_ORIGIN}${path}`, { redirect: 'manual', ...init });
}

function base64url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** What the token endpoint answered, with the client it was issued to. */
export interface OAuthTokens {
  access_token: string;
  refresh_token: string;
  scope: string;
  client_id: string;
}

/** An access token granting, from `apiKey`, the consent-page fields (`read`, `write`, ...). */
export async function oauthToken(
  apiKey: string,
  fields: Record<string, string>,
  address: string,
): Promise<string> {
  return (await oauthTokens(apiKey, fields, address)).access_token;
}

/** The whole token response (access and refresh token, scope) of the flow `oauthToken` runs. */
export async function oauthTokens(
  apiKey: string,
  fields: Record<string, string>,
  address: string,
): Promise<OAuthTokens> {
  const headers = { 'cf-connecting-ip': address };
  const registered = await at('/oauth/register', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Security table',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    }),
  });
  expect(registered.status).toBe(201);
  const { client_id } = (await registered.json()) as { client_id: string };
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  const params = new URLSearchParams({
    response_type: 'code',
    client_id,
    redirect_uri: REDIRECT,
    scope: 'memory:read memory:write memory:forget',
    state: 's',
    code_challenge: base64url(new Uint8Array(digest)),
    code_challenge_method: 'S256',
    resource: `${OAUTH_ORIGIN}/`,
  });
  const page = await at(`/authorize?${params}`, { headers });
  const handle = /name="handle" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const approved = await at('/authorize', {
    method: 'POST',
    headers: { ...headers, cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ handle, decision: 'approve', api_key: apiKey, ...fields }),
  });
  expect(approved.status).toBe(302);
  const code = new URL(approved.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const token = await at('/oauth/token', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id,
      code_verifier: verifier,
      resource: `${OAUTH_ORIGIN}/`,
    }),
  });
  expect(token.status).toBe(200);
  return { ...((await token.json()) as Omit<OAuthTokens, 'client_id'>), client_id };
}

/** Exchanges a refresh token, optionally for a narrower `scope` (RFC 6749 §6). */
export function refreshAt(tokens: OAuthTokens, scope?: string): Promise<Response> {
  return at('/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: tokens.client_id,
      ...(scope === undefined ? {} : { scope }),
    }),
  });
}
