import { describe, expect, inject, it } from 'vitest';

// The site edge over real HTTP against `wrangler dev` (Workers Static Assets + the Worker).
const base = inject('baseUrl');
const MD = 'text/markdown; charset=utf-8';

function get(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${base}${path}`, { redirect: 'manual', ...init });
}

describe('pages and their markdown', () => {
  it('serves HTML pages with the discovery Link header and Vary: Accept', async () => {
    const res = await get('/pricing', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toBe(
      '</openapi.json>; rel="service-desc", </.well-known/api-catalog>; rel="api-catalog", ' +
        '</llms.txt>; rel="describedby", </pricing.md>; rel="alternate"; type="text/markdown"',
    );
    expect(res.headers.get('vary')).toMatch(/accept/i);
  });

  it('HEAD / carries the api-catalog Link', async () => {
    const res = await get('/', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toContain('rel="api-catalog"');
    expect(res.headers.get('link')).toContain('</index.md>; rel="alternate"');
  });

  it('negotiates markdown with the same bytes and token headers as the twin', async () => {
    const negotiated = await get('/pricing', { headers: { accept: 'text/markdown' } });
    const twin = await get('/pricing.md');
    expect(negotiated.headers.get('content-type')).toBe(MD);
    expect(twin.headers.get('content-type')).toBe(MD);
    expect(await negotiated.text()).toBe(await twin.text());
    for (const h of ['x-markdown-tokens', 'x-original-tokens']) {
      expect(twin.headers.get(h)).toMatch(/^\d+$/);
      expect(negotiated.headers.get(h)).toBe(twin.headers.get(h));
    }
    expect(twin.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('keeps HTML for a browser Accept header', async () => {
    const res = await get('/pricing', {
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(res.headers.get('content-type')).toContain('text/html');
  });
});

describe('indexes and discovery documents', () => {
  it.each([
    ['/llms.txt', 'text/plain; charset=utf-8'],
    ['/llms-full.txt', 'text/plain; charset=utf-8'],
    ['/sitemap.xml', 'application/xml'],
    ['/openapi.json', 'application/json'],
    ['/.well-known/api-catalog', 'application/linkset+json'],
    ['/.well-known/mcp/server-card.json', 'application/json'],
    ['/api/cloud/pricing.json', 'application/json'],
    ['/auth.md', MD],
  ])('%s is %s with CORS *', async (path, type) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers a CORS preflight on the catalogue', async () => {
    const res = await get('/api/cloud/pricing.json', {
      method: 'OPTIONS',
      headers: { origin: 'https://agent.example', 'access-control-request-method': 'GET' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('404s and the hidden endpoints', () => {
  it('an unknown /api path is a problem+json 404', async () => {
    const res = await get('/api/cloud/nothing.json');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({ status: 404, code: 'resource_not_found' });
  });

  it.each(['/no-such-page.md', '/a/b/c/d/e.md', '/docs%2Fquickstart.md', '/sitemap-nothing.xml'])(
    '%s is the markdown 404',
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe(MD);
      expect(await res.text()).toMatch(/^# Not found/);
    },
  );

  it('an unknown page is the HTML 404 page for a browser', async () => {
    const res = await get('/no-such-page', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/html');
  });

  it('never serves the build manifest', async () => {
    expect((await get('/_agent/manifest.json')).status).toBe(404);
  });

  it('GET /api/learn/{course}.json is 200 []', async () => {
    const res = await get('/api/learn/memory-basics.json');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });

  it('GET /api/docs/search ranks twins, and a missing q is a 400 problem', async () => {
    const res = await get('/api/docs/search?q=pricing');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: { markdown_url: string }[] };
    expect(body.results.length).toBeGreaterThan(0);
    const bad = await get('/api/docs/search');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'validation_error' });
  });

  it('a write on a page is 405 with Allow: GET, HEAD', async () => {
    const res = await get('/pricing', { method: 'POST', body: 'x' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });
});
