import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import {
  ALL,
  call,
  createContext,
  createPrincipal,
  json,
  unique,
  writeFact,
  type GrantsInput,
} from '../memory/helpers.ts';
import { OAUTH_ORIGIN, oauthToken, oauthTokens, refreshAt } from './oauth-token.ts';

// Issue 41: the REST API takes an access token of this origin's OAuth flow as it takes the key
// the person consented with, narrowed to what the consent gave, and refuses a bad token with the
// same 401 as a bad key.

let addresses = 0;
/** Consents and registrations are throttled per address: each flow comes from its own. */
function address(): string {
  addresses += 1;
  return `198.51.100.${addresses}`;
}

async function keyFor(
  ctx: string,
  grants: GrantsInput,
  kind: 'agent' | 'management' = 'agent',
): Promise<{ id: string; key: string }> {
  const res = await call('POST', '/api/v1/keys', {
    body: { principal_id: await createPrincipal(kind), context_id: ctx, grants },
  });
  expect(res.status).toBe(201);
  return json<{ id: string; key: string }>(res);
}

/** A REST call with an access token, at the loopback origin where OAuth is offered. */
function withToken(token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return call(method, path, {
    key: token,
    origin: OAUTH_ORIGIN,
    ...(body === undefined ? {} : { body }),
  });
}

async function expect401(res: Response): Promise<void> {
  const text = await res.text();
  expect(res.status, text).toBe(401);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.headers.get('www-authenticate')).toBe(
    `Bearer resource_metadata="${OAUTH_ORIGIN}/.well-known/oauth-protected-resource"`,
  );
  expect(JSON.parse(text)).toMatchObject({ status: 401, title: 'Unauthorized' });
}

const TEAM_A = ['team:a'];

describe('REST with an OAuth access token', () => {
  it('stands for the consenting key: its principal, its Context, the grant chosen', async () => {
    const ctx = await createContext();
    const issued = await keyFor(ctx, { 'memory:read': TEAM_A, 'memory:write': TEAM_A });
    const token = await oauthToken(issued.key, { read: '*', write: '*' }, address());
    const whoKey = await json(await call('GET', '/api/v1/whoami', { key: issued.key }));
    const who = await json(await withToken(token, 'GET', '/api/v1/whoami'));
    expect(who).toMatchObject({
      key_id: `oauth:${issued.id}`,
      principal: whoKey.principal,
      context_id: ctx,
      root: false,
      grants: { 'memory:read': TEAM_A, 'memory:write': TEAM_A, 'memory:forget': [] },
      read_lens: whoKey.read_lens,
    });
    // The key's own Context opens with it, as with the key.
    expect((await withToken(token, 'GET', `/api/v1/contexts/${ctx}`)).status).toBe(200);
  });

  it("reads the key's lens and no more: nothing of another team, nothing of another Context", async () => {
    const ctx = await createContext();
    const other = await createContext();
    await writeFact(ctx, env.MEMORY_BOOTSTRAP_KEY, 'Team A ships the harbour release', TEAM_A);
    const hidden = await writeFact(ctx, env.MEMORY_BOOTSTRAP_KEY, 'Team B salary bands', [
      'team:b',
    ]);
    await writeFact(other, env.MEMORY_BOOTSTRAP_KEY, 'Another Context entirely', TEAM_A);
    const issued = await keyFor(ctx, { 'memory:read': TEAM_A, 'memory:write': TEAM_A });
    const token = await oauthToken(issued.key, { read: '*', write: '*' }, address());

    const list = await withToken(token, 'GET', `/api/v1/${ctx}/facts`);
    expect(list.status).toBe(200);
    const text = await list.text();
    expect(text).toContain('harbour release');
    expect(text).not.toContain('salary');

    const query = await withToken(token, 'POST', `/api/v1/${ctx}/query`, {
      query: 'salary bands',
      mode: 'bm25',
    });
    expect(query.status).toBe(200);
    expect(await query.text()).not.toContain('salary');
    // Asking for team:b explicitly is outside the grant: 403, as for the key.
    const lensed = await withToken(token, 'POST', `/api/v1/${ctx}/query`, {
      query: 'salary',
      mode: 'bm25',
      lens: ['team:b'],
    });
    expect(lensed.status).toBe(403);
    expect((await withToken(token, 'GET', `/api/v1/${ctx}/facts/${hidden.id}`)).status).toBe(404);
    expect((await withToken(token, 'GET', `/api/v1/${other}/facts`)).status).toBe(403);
    expect((await withToken(token, 'GET', `/api/v1/contexts/${other}`)).status).toBe(403);
  });

  it('cannot write with a read-only consent, even when the key could', async () => {
    const ctx = await createContext();
    const issued = await keyFor(ctx, ALL);
    const token = await oauthToken(issued.key, { read: '*' }, address());
    const write = await withToken(token, 'POST', `/api/v1/${ctx}/facts`, {
      content: 'should not land',
      scopes: [],
    });
    expect(write.status).toBe(403);
    expect((await withToken(token, 'GET', `/api/v1/${ctx}/facts`)).status).toBe(200);
    const fact = await writeFact(ctx, issued.key, 'written with the key itself');
    const forget = await withToken(token, 'DELETE', `/api/v1/${ctx}/facts/${fact.id}`);
    expect(forget.status).toBe(403);
  });

  it('keeps the verbs of a refreshed token to the narrower scope it was refreshed with', async () => {
    const ctx = await createContext();
    const issued = await keyFor(ctx, ALL);
    const tokens = await oauthTokens(issued.key, { read: '*', write: '*' }, address());
    const refreshed = await refreshAt(tokens, 'memory:read');
    expect(refreshed.status).toBe(200);
    const { access_token: narrow } = await json<{ access_token: string }>(refreshed);
    const who = await json<{ grants: Record<string, string[]> }>(
      await withToken(narrow, 'GET', '/api/v1/whoami'),
    );
    expect(who.grants).toEqual({ 'memory:read': ['*'], 'memory:write': [], 'memory:forget': [] });
    const write = await withToken(narrow, 'POST', `/api/v1/${ctx}/facts`, { content: 'no' });
    expect(write.status).toBe(403);
  });

  it("carries memory scopes only: a management key's token manages nothing", async () => {
    const ctx = await createContext();
    const issued = await keyFor(ctx, ALL, 'management');
    const token = await oauthToken(issued.key, { read: '*', write: '*' }, address());
    expect((await withToken(token, 'GET', `/api/v1/${ctx}/facts`)).status).toBe(200);
    for (const [method, path] of [
      ['GET', `/api/v1/keys?context_id=${ctx}`],
      ['GET', '/api/v1/principals'],
      ['GET', '/api/v1/contexts'],
      ['GET', `/api/v1/contexts/${ctx}/export`],
    ] as const) {
      const res = await withToken(token, method, path);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await res.text()).toContain('memory scopes only');
    }
    // The key itself still manages its Context.
    expect((await call('GET', `/api/v1/keys?context_id=${ctx}`, { key: issued.key })).status).toBe(
      200,
    );
  });
});

describe('REST refuses a bad access token with the 401 of a bad key', () => {
  it('unknown token, on the control plane and the data plane', async () => {
    const ctx = await createContext();
    const bogus = `${unique('user')}:${unique('grant')}:not-a-secret`;
    await expect401(await withToken(bogus, 'GET', '/api/v1/whoami'));
    await expect401(await withToken(bogus, 'GET', `/api/v1/${ctx}/facts`));
    // A bad key answers the same way.
    await expect401(await withToken('mem_agent_AAAAAAAAAAAAAAAAAAAAAAAA', 'GET', '/api/v1/whoami'));
  });

  it('a token whose key was revoked since', async () => {
    const ctx = await createContext();
    const issued = await keyFor(ctx, ALL);
    const token = await oauthToken(issued.key, { read: '*' }, address());
    expect((await withToken(token, 'GET', `/api/v1/${ctx}/facts`)).status).toBe(200);
    expect((await call('DELETE', `/api/v1/keys/${issued.id}`)).status).toBe(204);
    await expect401(await withToken(token, 'GET', `/api/v1/${ctx}/facts`));
    await expect401(await withToken(token, 'GET', '/api/v1/whoami'));
  });

  it('an expired token', async () => {
    const ctx = await createContext();
    const token = await oauthToken((await keyFor(ctx, ALL)).key, { read: '*' }, address());
    // The provider keeps `token:<user>:<grant>:<id>` in KV; move its expiry into the past.
    const [userId, grantId] = token.split(':');
    const listed = await env.OAUTH_KV.list({ prefix: `token:${userId}:${grantId}:` });
    expect(listed.keys.length).toBe(1);
    for (const { name } of listed.keys) {
      const record = await env.OAUTH_KV.get<{ expiresAt: number }>(name, 'json');
      if (record === null) throw new Error(`no token record at ${name}`);
      const past = Math.floor(Date.now() / 1000) - 60;
      await env.OAUTH_KV.put(name, JSON.stringify({ ...record, expiresAt: past }));
    }
    await expect401(await withToken(token, 'GET', `/api/v1/${ctx}/facts`));
    await expect401(await withToken(token, 'GET', '/api/v1/whoami'));
  });

  it('a token presented at another origin than the one that issued it', async () => {
    const ctx = await createContext();
    const token = await oauthToken((await keyFor(ctx, ALL)).key, { read: '*' }, address());
    // Issued for http://127.0.0.1:8787/; ORIGIN (http://memory.test) is another resource.
    const res = await call('GET', `/api/v1/${ctx}/facts`, { key: token });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });
});
