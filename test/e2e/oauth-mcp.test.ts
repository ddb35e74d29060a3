import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { MemoryClient } from '../../sdk/js/src/index.ts';

// The whole OAuth 2.1 flow as an MCP client runs it, against the real `wrangler dev`: 401 with
// resource metadata, discovery, dynamic registration, authorize with PKCE (the consent form is
// filled in by this test, as a person would), token, then tool calls with the token.
const base = inject('baseUrl');
const admin = new MemoryClient({ baseUrl: base, apiKey: inject('bootstrapKey') });
const CONTEXT = `e2e-oauth-${Date.now()}`;
const REDIRECT = 'http://127.0.0.1:9/callback';
let personKey = '';

/** An in-memory OAuth client provider; `redirectToAuthorization` records the URL to visit. */
class TestProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;

  get redirectUrl(): string {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'E2E MCP agent',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** What a person does in the browser: open the consent page, fill it in, approve. */
async function approveInBrowser(url: URL, fields: Record<string, string>): Promise<string> {
  const page = await fetch(url, { redirect: 'manual' });
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('E2E MCP agent');
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const approved = await fetch(`${base}/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ handle, decision: 'approve', ...fields }),
  });
  expect(approved.status).toBe(302);
  const location = new URL(approved.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  return location.searchParams.get('code') ?? '';
}

beforeAll(async () => {
  await admin.createContext(CONTEXT);
  const principal = await admin.createPrincipal({
    kind: 'agent',
    display_name: `${CONTEXT}-person`,
  });
  const key = await admin.createKey({
    principal_id: principal.id,
    context_id: CONTEXT,
    grants: { 'memory:read': ['*'], 'memory:write': ['*'], 'memory:forget': ['*'] },
  });
  personKey = key.key;
});

describe('OAuth for MCP clients, end to end with the official SDK', () => {
  it('registers, authorizes with PKCE, gets a token and calls tools with exactly the granted scopes', async () => {
    const provider = new TestProvider();
    const url = new URL(`${base}/mcp`);
    const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
    const client = new Client({ name: 'e2e-oauth', version: '1.0.0' });
    await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.info?.client_id).toBeTruthy();
    const authorizationUrl = provider.authorizationUrl;
    expect(authorizationUrl?.pathname).toBe('/authorize');
    expect(authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');

    const code = await approveInBrowser(authorizationUrl ?? new URL(base), {
      api_key: personKey,
      read: 'team:x',
      write: 'team:x',
    });
    await first.finishAuth(code);
    expect(provider.saved?.access_token).toBeTruthy();
    expect(provider.saved?.scope?.split(' ').sort()).toEqual(['memory:read', 'memory:write']);

    const connected = new Client({ name: 'e2e-oauth', version: '1.0.0' });
    await connected.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    const stored = await connected.callTool({
      name: 'remember',
      arguments: { content: 'Granted through OAuth.', scopes: ['team:x'] },
    });
    expect(stored.isError).toBeFalsy();
    const found = await connected.callTool({
      name: 'recall',
      arguments: { query: 'granted through OAuth', mode: 'bm25' },
    });
    const results = (found.structuredContent as { results: Array<{ content: string }> }).results;
    expect(results[0]?.content).toBe('Granted through OAuth.');
    // The key could write anywhere; the token only where the person chose.
    const outside = await connected.callTool({
      name: 'remember',
      arguments: { content: 'Outside the consent.', scopes: ['team:y'] },
    });
    expect(outside.isError).toBe(true);
    expect(outside.structuredContent).toMatchObject({ error: { status: 403 } });
    // No memory:forget was granted.
    const id = (stored.structuredContent as { facts: Array<{ id: string }> }).facts[0]?.id ?? '';
    const forget = await connected.callTool({ name: 'forget', arguments: { id } });
    expect(forget.structuredContent).toMatchObject({ error: { status: 403 } });
    await connected.close();
  });

  it('publishes the metadata an MCP client discovers', async () => {
    const resource = (await (
      await fetch(`${base}/.well-known/oauth-protected-resource`)
    ).json()) as {
      resource: string;
      authorization_servers: string[];
    };
    expect(resource.resource).toBe(`${base}/`);
    const server = (await (
      await fetch(`${base}/.well-known/oauth-authorization-server`)
    ).json()) as {
      registration_endpoint: string;
      code_challenge_methods_supported: string[];
    };
    expect(server.registration_endpoint).toBe(`${base}/oauth/register`);
    expect(server.code_challenge_methods_supported).toContain('S256');
    expect(resource.authorization_servers).toEqual([base]);
  });
});
