import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { BOOTSTRAP, type JsonRpcReply } from './mcp-client.ts';

// OAuth 2.1 needs HTTPS or a loopback origin, as on `npm start`.
const ORIGIN = 'http://127.0.0.1:8787';
const REDIRECT = 'http://127.0.0.1:9/callback';

function fetchAt(path: string, init?: RequestInit): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}${path}`, { redirect: 'manual', ...init });
}

async function rest<T>(path: string, body: unknown): Promise<T> {
  const res = await fetchAt(path, {
    method: 'POST',
    headers: { authorization: `Bearer ${BOOTSTRAP}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, path).toBeLessThan(300);
  return (await res.json()) as T;
}

function base64url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

async function agentKey(contextId: string, grants: Record<string, string[]>): Promise<string> {
  return (await issueKey(contextId, grants)).key;
}

async function issueKey(
  contextId: string,
  grants: Record<string, string[]>,
): Promise<{ id: string; key: string }> {
  await rest('/api/v1/contexts', { id: contextId });
  const principal = await rest<{ id: string }>('/api/v1/principals', {
    kind: 'agent',
    display_name: `${contextId}-agent`,
  });
  return rest<{ id: string; key: string }>('/api/v1/keys', {
    principal_id: principal.id,
    context_id: contextId,
    grants,
  });
}

/** Registers a client and opens the consent page; returns what the form post needs. */
async function startAuthorization() {
  const registered = await fetchAt('/oauth/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Test agent',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    }),
  });
  expect(registered.status).toBe(201);
  const client = (await registered.json()) as { client_id: string };
  const { verifier, challenge } = await pkce();
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    scope: 'memory:read memory:write',
    state: 'state-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: `${ORIGIN}/`,
  });
  const page = await fetchAt(`/authorize?${params}`);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('Test agent');
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { clientId: client.client_id, verifier, handle, cookie };
}

function consent(flow: { handle: string; cookie: string }, fields: Record<string, string>) {
  return fetchAt('/authorize', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: flow.cookie },
    body: new URLSearchParams({ handle: flow.handle, decision: 'approve', ...fields }),
  });
}

async function mcp(token: string, method: string, params: Record<string, unknown>) {
  const res = await fetchAt('/mcp', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return { status: res.status, body: (await res.json()) as JsonRpcReply['body'] };
}

describe('OAuth discovery documents', () => {
  it('serves protected-resource metadata (RFC 9728) naming the authorization server', async () => {
    const res = await fetchAt('/.well-known/oauth-protected-resource');
    expect(res.status).toBe(200);
    const meta = (await res.json()) as Record<string, unknown>;
    expect(meta).toMatchObject({ resource: `${ORIGIN}/`, authorization_servers: [ORIGIN] });
    expect(meta.scopes_supported).toEqual(['memory:read', 'memory:write', 'memory:forget']);
  });

  it('serves authorization-server metadata (RFC 8414) with PKCE S256 and registration', async () => {
    const res = await fetchAt('/.well-known/oauth-authorization-server');
    const meta = (await res.json()) as Record<string, unknown>;
    expect(meta).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      registration_endpoint: `${ORIGIN}/oauth/register`,
    });
    expect(meta.code_challenge_methods_supported).toContain('S256');
  });

  it('answers /mcp without a credential with 401 pointing at the metadata', async () => {
    const res = await fetchAt('/mcp', { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(
      `resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource"`,
    );
    expect(await res.json()).toMatchObject({ status: 401, title: 'Unauthorized' });
  });

  it('lets a browser client read the 401 challenge (CORS exposes WWW-Authenticate)', async () => {
    const res = await fetchAt('/mcp', {
      method: 'POST',
      headers: { origin: 'http://localhost:6274' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-expose-headers')?.toLowerCase()).toContain(
      'www-authenticate',
    );
  });

  it('answers /mcp with an unknown token with 401 and a challenge', async () => {
    const res = await fetchAt('/mcp', {
      method: 'POST',
      headers: { authorization: 'Bearer nobody:nothing:nowhere' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('resource_metadata=');
    // The service's problem body (the hostile-input fuzz found the provider's bare OAuth JSON
    // here), with the OAuth `error` kept for clients that read it.
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({
      status: 401,
      title: 'Unauthorized',
      instance: '/mcp',
      error: 'invalid_token',
    });
  });
});

describe('OAuth flow: register, authorize with PKCE, token, call a tool', () => {
  it('issues a token carrying exactly the grants chosen on the consent page', async () => {
    const { id: keyId, key } = await issueKey('oauth-flow-1', {
      'memory:read': ['team:a', 'team:b'],
      'memory:write': ['team:a', 'team:b'],
      'memory:forget': [],
    });
    const flow = await startAuthorization();
    const approved = await consent(flow, { api_key: key, read: 'team:a', write: 'team:a' });
    expect(approved.status).toBe(302);
    const location = new URL(approved.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('state-1');
    const code = location.searchParams.get('code') ?? '';

    const tokenRes = await fetchAt('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: flow.clientId,
        code_verifier: flow.verifier,
        resource: `${ORIGIN}/`,
      }),
    });
    expect(tokenRes.status).toBe(200);
    const token = (await tokenRes.json()) as { access_token: string; scope: string };
    expect(token.scope.split(' ').sort()).toEqual(['memory:read', 'memory:write']);

    const stored = await mcp(token.access_token, 'tools/call', {
      name: 'remember',
      arguments: { content: 'OAuth clients can remember.', scopes: ['team:a'] },
    });
    expect(stored.status).toBe(200);
    expect(stored.body.result?.isError).toBeFalsy();
    // team:b is inside the key's grant but was not chosen on the consent page.
    const outside = await mcp(token.access_token, 'tools/call', {
      name: 'remember',
      arguments: { content: 'Not granted.', scopes: ['team:b'] },
    });
    expect(outside.body.result?.structuredContent?.error).toMatchObject({ status: 403 });
    const found = await mcp(token.access_token, 'tools/call', {
      name: 'recall',
      arguments: { query: 'OAuth clients remember', mode: 'bm25' },
    });
    const results = found.body.result?.structuredContent?.results as Array<{ content: string }>;
    expect(results[0]?.content).toBe('OAuth clients can remember.');

    // Revoking the key the grant was made from stops the token at its next call.
    const revoked = await fetchAt(`/api/v1/keys/${keyId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${BOOTSTRAP}` },
    });
    expect(revoked.status).toBe(204);
    const after = await mcp(token.access_token, 'tools/list', {});
    expect(after.status).toBe(401);
  });

  it('refuses a grant wider than the key on the consent page, and a wrong code verifier', async () => {
    const key = await agentKey('oauth-flow-2', {
      'memory:read': ['team:a'],
      'memory:write': [],
      'memory:forget': [],
    });
    const flow = await startAuthorization();
    const wider = await consent(flow, { api_key: key, read: 'team:z' });
    expect(wider.status).toBe(403);
    const badKey = await consent(flow, {
      api_key: 'mem_agent_notarealkeynotarealkey00',
      read: 'team:a',
    });
    expect(badKey.status).toBe(401);
    const otherContext = await consent(flow, {
      api_key: key,
      context_id: 'oauth-nope',
      read: 'team:a',
    });
    expect(otherContext.status).toBe(401);
    const noWrite = await consent(flow, { api_key: key, write: '*' });
    expect(noWrite.status).toBe(403);
    // The handle survives rejected forms and works once approved; * is the key's whole grant.
    const approved = await consent(flow, { api_key: key, read: '*' });
    expect(approved.status).toBe(302);
    const code = new URL(approved.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const tokenRes = await fetchAt('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: flow.clientId,
        code_verifier: 'wrong-verifier-wrong-verifier-wrong-verifier-00',
        resource: `${ORIGIN}/`,
      }),
    });
    expect(tokenRes.status).toBe(400);
  });
});
