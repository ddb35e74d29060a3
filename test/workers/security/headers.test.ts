import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { PERMISSIONS_POLICY, siteCsp } from '../../../functions/site/security-headers.ts';
import { BOOTSTRAP, setup } from '../memory/helpers.ts';

// Issue 11 item 6 / issue 15 item 7: security headers on every page and every API response.

function get(url: string, init?: RequestInit): Promise<Response> {
  return exports.default.fetch(url, { redirect: 'manual', ...init });
}

function expectPageHeaders(res: Response, label: string): void {
  expect(res.headers.get('content-type'), label).toContain('text/html');
  expect(res.headers.get('x-content-type-options'), label).toBe('nosniff');
  expect(res.headers.get('content-security-policy'), label).toBe(siteCsp());
  expect(res.headers.get('referrer-policy'), label).toBe('strict-origin-when-cross-origin');
  expect(res.headers.get('permissions-policy'), label).toBe(PERMISSIONS_POLICY);
  expect(res.headers.get('x-frame-options'), label).toBe('DENY');
}

describe('security headers on the site', () => {
  it.each(['/', '/pricing', '/docs', '/blog', '/errors/not-found'])(
    'HTML page %s carries CSP, nosniff, Referrer-Policy, Permissions-Policy and frame protection',
    async (path) => {
      const res = await get(`http://site.test${path}`);
      expect(res.status, path).toBe(200);
      expectPageHeaders(res, path);
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    },
  );

  it('the HTML 404 page carries them too', async () => {
    const res = await get('http://site.test/no-such-page', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(404);
    expectPageHeaders(res, '404');
  });

  it.each(['/pricing.md', '/llms.txt', '/openapi.json', '/api/cloud/pricing.json', '/api/nope'])(
    'non-HTML response %s is nosniff, with no page CSP',
    async (path) => {
      const res = await get(`http://site.test${path}`);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('content-security-policy'), path).toBeNull();
    },
  );

  it('sends HSTS over https only', async () => {
    const secure = await get('https://site.test/');
    expect(secure.headers.get('strict-transport-security')).toBe(
      'max-age=63072000; includeSubDomains',
    );
    const plain = await get('http://site.test/');
    expect(plain.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('nosniff on every API response', () => {
  it('memory API success, problem bodies, /health, MCP and OAuth metadata', async () => {
    const { ctx, key } = await setup();
    const cases: [string, RequestInit][] = [
      [`http://memory.test/api/v1/${ctx}/facts`, { headers: { authorization: `Bearer ${key}` } }],
      [`http://memory.test/api/v1/${ctx}/facts`, {}],
      ['http://memory.test/api/v1/contexts/x', { headers: { authorization: 'Bearer nope' } }],
      [
        'http://memory.test/api/v1/migrations',
        { headers: { authorization: `Bearer ${BOOTSTRAP}` } },
      ],
      ['http://memory.test/health', {}],
      ['http://127.0.0.1:8787/mcp', { method: 'POST', body: '{}' }],
      ['http://127.0.0.1:8787/.well-known/oauth-authorization-server', {}],
    ];
    for (const [url, init] of cases) {
      const res = await get(url, init);
      expect(res.headers.get('x-content-type-options'), `${url} ${res.status}`).toBe('nosniff');
      expect(res.headers.get('content-security-policy'), url).toBeNull();
    }
  });
});

describe('the OAuth consent page', () => {
  it('is nosniff, sends no referrer, cannot be framed and loads nothing', async () => {
    const origin = 'http://127.0.0.1:8787';
    const redirect = 'http://127.0.0.1:9/callback';
    const registered = await get(`${origin}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Header check',
        redirect_uris: [redirect],
        token_endpoint_auth_method: 'none',
      }),
    });
    const { client_id } = (await registered.json()) as { client_id: string };
    const params = new URLSearchParams({
      response_type: 'code',
      client_id,
      redirect_uri: redirect,
      scope: 'memory:read',
      state: 's',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const res = await get(`${origin}/authorize?${params}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('permissions-policy')).toBe(PERMISSIONS_POLICY);
  });
});
