import { env } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { CONSENT_ATTEMPTS_PER_MINUTE } from '../../../functions/memory/oauth/authorize.ts';
import { REGISTRATION_LIMITS } from '../../../functions/memory/oauth/registration-guard.ts';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
  refreshTokenTtlSeconds,
} from '../../../functions/memory/oauth/settings.ts';
import { BOOTSTRAP } from './mcp-client.ts';

// Issue 15, attack 4: OAuth per RFC 9700 and OAuth 2.1. Every test speaks from its own client
// address (cf-connecting-ip), because registration and consent are throttled per address.
const ORIGIN = 'http://127.0.0.1:8787';
const REDIRECT = 'http://127.0.0.1:9/callback';

let addressCounter = 0;
function newAddress(): string {
  addressCounter += 1;
  return `198.51.100.${addressCounter}`;
}

function fetchAt(path: string, init: RequestInit & { address: string }): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('cf-connecting-ip', init.address);
  return exports.default.fetch(`${ORIGIN}${path}`, { redirect: 'manual', ...init, headers });
}

async function rest<T>(path: string, body: unknown): Promise<T> {
  const res = await exports.default.fetch(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BOOTSTRAP}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, path).toBeLessThan(300);
  return (await res.json()) as T;
}

async function agentKey(contextId: string): Promise<string> {
  await rest('/api/v1/contexts', { id: contextId });
  const principal = await rest<{ id: string }>('/api/v1/principals', {
    kind: 'agent',
    display_name: `${contextId}-agent`,
  });
  const key = await rest<{ key: string }>('/api/v1/keys', {
    principal_id: principal.id,
    context_id: contextId,
    grants: { 'memory:read': ['*'], 'memory:write': ['*'] },
  });
  return key.key;
}

function register(address: string, metadata: Record<string, unknown>): Promise<Response> {
  return fetchAt('/oauth/register', {
    address,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  });
}

const CLIENT = {
  client_name: 'Hardening',
  redirect_uris: [REDIRECT],
  token_endpoint_auth_method: 'none',
};

async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = `${crypto.randomUUID()}-${crypto.randomUUID()}`;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  let bin = '';
  for (const b of new Uint8Array(digest)) bin += String.fromCharCode(b);
  const challenge = btoa(bin).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
  return { verifier, challenge };
}

async function openConsent(address: string, scope = 'memory:read memory:write') {
  const registered = await register(address, CLIENT);
  expect(registered.status).toBe(201);
  const { client_id } = (await registered.json()) as { client_id: string };
  const { verifier, challenge } = await pkce();
  const params = new URLSearchParams({
    response_type: 'code',
    client_id,
    redirect_uri: REDIRECT,
    scope,
    state: 'st-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: `${ORIGIN}/`,
  });
  const page = await fetchAt(`/authorize?${params}`, { address });
  const html = page.status === 200 ? await page.text() : '';
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { page, clientId: client_id, verifier, handle, cookie };
}

function consent(
  address: string,
  flow: { handle: string; cookie: string },
  fields: Record<string, string>,
): Promise<Response> {
  return fetchAt('/authorize', {
    address,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: flow.cookie },
    body: new URLSearchParams({ handle: flow.handle, decision: 'approve', ...fields }),
  });
}

interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

function tokenCall(address: string, fields: Record<string, string>): Promise<Response> {
  return fetchAt('/oauth/token', {
    address,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
}

/** The whole flow up to a first token pair. */
async function tokens(address: string, contextId: string): Promise<Tokens & { clientId: string }> {
  const key = await agentKey(contextId);
  const flow = await openConsent(address);
  const approved = await consent(address, flow, { api_key: key, read: '*', write: '*' });
  expect(approved.status).toBe(302);
  const code = new URL(approved.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const res = await tokenCall(address, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    client_id: flow.clientId,
    code_verifier: flow.verifier,
    resource: `${ORIGIN}/`,
  });
  expect(res.status).toBe(200);
  return { ...((await res.json()) as Tokens), clientId: flow.clientId };
}

function refresh(address: string, clientId: string, refreshToken: string, scope?: string) {
  return tokenCall(address, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: clientId,
    ...(scope === undefined ? {} : { scope }),
  });
}

async function mcpStatus(token: string): Promise<number> {
  const res = await exports.default.fetch(`${ORIGIN}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  await res.body?.cancel();
  return res.status;
}

describe('refresh tokens (RFC 9700 §4.14.2)', () => {
  it('reuse of a rotated-out refresh token revokes the whole grant', async () => {
    const address = newAddress();
    const first = await tokens(address, 'oauth-h-reuse');
    const rotated = await refresh(address, first.clientId, first.refresh_token);
    expect(rotated.status).toBe(200);
    const second = (await rotated.json()) as Tokens;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await mcpStatus(second.access_token)).toBe(200);

    // The attacker replays the spent token: refused, and the grant is gone for everyone.
    const replay = await refresh(address, first.clientId, first.refresh_token);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: 'invalid_grant' });
    const legit = await refresh(address, first.clientId, second.refresh_token);
    expect(legit.status).toBe(400);
    expect(await mcpStatus(second.access_token)).toBe(401);
    expect(await mcpStatus(first.access_token)).toBe(401);
  });

  it('access tokens live an hour; refresh tokens expire after the configured 30 days', async () => {
    const address = newAddress();
    const before = Math.floor(Date.now() / 1000);
    const pair = await tokens(address, 'oauth-h-ttl');
    expect(pair.expires_in).toBe(ACCESS_TOKEN_TTL_SECONDS);
    const [userId, grantId] = pair.refresh_token.split(':');
    const grant = await env.OAUTH_KV.get<{ expiresAt?: number }>(`grant:${userId}:${grantId}`, {
      type: 'json',
    });
    const expiresAt = grant?.expiresAt ?? 0;
    expect(expiresAt).toBeGreaterThanOrEqual(before + DEFAULT_REFRESH_TOKEN_TTL_SECONDS);
    expect(expiresAt).toBeLessThanOrEqual(before + DEFAULT_REFRESH_TOKEN_TTL_SECONDS + 60);
  });

  it('OAUTH_REFRESH_TOKEN_TTL_SECONDS sets the lifetime; a bad value is an error, never "forever"', () => {
    expect(refreshTokenTtlSeconds({})).toBe(DEFAULT_REFRESH_TOKEN_TTL_SECONDS);
    expect(refreshTokenTtlSeconds({ OAUTH_REFRESH_TOKEN_TTL_SECONDS: '86400' })).toBe(86400);
    for (const bad of ['0', '-5', '1.5', 'forever', '999999999999']) {
      expect(() => refreshTokenTtlSeconds({ OAUTH_REFRESH_TOKEN_TTL_SECONDS: bad })).toThrow(
        /OAUTH_REFRESH_TOKEN_TTL_SECONDS/,
      );
    }
  });
});

describe('unknown scopes are refused (invalid_scope)', () => {
  it('at /authorize: redirected back to the client with error=invalid_scope and its state', async () => {
    const address = newAddress();
    const flow = await openConsent(address, 'memory:read admin:everything');
    expect(flow.page.status).toBe(302);
    const location = new URL(flow.page.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    expect(location.searchParams.get('state')).toBe('st-1');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('at the token endpoint, and in registration metadata', async () => {
    const address = newAddress();
    const pair = await tokens(address, 'oauth-h-scope');
    const res = await refresh(address, pair.clientId, pair.refresh_token, 'memory:read superuser');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_scope' });
    // The refusal spent nothing: the refresh token still works.
    expect((await refresh(address, pair.clientId, pair.refresh_token)).status).toBe(200);
    const reg = await register(newAddress(), { ...CLIENT, scope: 'memory:read root' });
    expect(reg.status).toBe(400);
    expect(await reg.json()).toMatchObject({ error: 'invalid_client_metadata' });
  });
});

describe('dynamic client registration is bounded', () => {
  async function clientCount(): Promise<number> {
    return (await env.OAUTH_KV.list({ prefix: 'client:' })).keys.length;
  }

  it.each([
    [
      'too many redirect URIs',
      {
        redirect_uris: Array.from(
          { length: REGISTRATION_LIMITS.redirectUris + 1 },
          (_, i) => `http://127.0.0.1:9/cb${i}`,
        ),
      },
      'invalid_redirect_uri',
    ],
    [
      'a 2,000-URI list',
      { redirect_uris: Array.from({ length: 2000 }, (_, i) => `https://a.test/${i}`) },
      'invalid_client_metadata',
    ],
    [
      'a long client name',
      { client_name: 'x'.repeat(REGISTRATION_LIMITS.clientNameChars + 1) },
      'invalid_client_metadata',
    ],
    ['a 1 MB client name', { client_name: 'x'.repeat(1_000_000) }, 'invalid_client_metadata'],
    [
      'a long redirect URI',
      { redirect_uris: [`http://127.0.0.1:9/${'a'.repeat(REGISTRATION_LIMITS.uriChars)}`] },
      'invalid_redirect_uri',
    ],
    [
      'a long client_uri',
      { client_uri: `https://a.test/${'a'.repeat(3000)}` },
      'invalid_client_metadata',
    ],
    [
      'many contacts',
      { contacts: Array.from({ length: 50 }, (_, i) => `a${i}@b.test`) },
      'invalid_client_metadata',
    ],
  ])('refuses %s and stores nothing', async (_label, override, error) => {
    const before = await clientCount();
    const res = await register(newAddress(), { ...CLIENT, ...override });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error });
    expect(await clientCount()).toBe(before);
  });

  it('accepts the limits exactly', async () => {
    const res = await register(newAddress(), {
      ...CLIENT,
      client_name: 'n'.repeat(REGISTRATION_LIMITS.clientNameChars),
      redirect_uris: Array.from(
        { length: REGISTRATION_LIMITS.redirectUris },
        (_, i) => `http://127.0.0.1:9/cb${i}`,
      ),
    });
    expect(res.status).toBe(201);
  });

  it('is rate-limited per client address (429 with Retry-After), not for everyone', async () => {
    const address = newAddress();
    for (let i = 0; i < REGISTRATION_LIMITS.perMinute; i++) {
      expect((await register(address, CLIENT)).status).toBe(201);
    }
    const limited = await register(address, CLIENT);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ error: 'temporarily_unavailable' });
    expect((await register(newAddress(), CLIENT)).status).toBe(201);
  });
});

describe('consent attempts are throttled', () => {
  it('after the per-minute budget of key guesses even a right key waits (429)', async () => {
    const address = newAddress();
    const key = await agentKey('oauth-h-consent');
    const flow = await openConsent(address);
    for (let i = 0; i < CONSENT_ATTEMPTS_PER_MINUTE; i++) {
      const guess = await consent(address, flow, {
        api_key: `mem_agent_guess${String(i).padStart(20, '0')}`,
        read: '*',
      });
      expect(guess.status).toBe(401);
    }
    const blocked = await consent(address, flow, { api_key: key, read: '*' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await blocked.text()).toContain('Too many attempts');
    // Another address is not held back by this one's guesses.
    const other = newAddress();
    const fresh = await openConsent(other);
    expect((await consent(other, fresh, { api_key: key, read: '*' })).status).toBe(302);
  });
});
