import { describe, expect, it } from 'vitest';
import { handleSiteRequest } from '../../../functions/site/app.ts';
import { fakeAssets, SITE_FILES } from './fake-assets.ts';

const ORIGIN = 'https://engram.example';
const MD = 'text/markdown; charset=utf-8';
const LINK =
  '</openapi.json>; rel="service-desc", </.well-known/api-catalog>; rel="api-catalog", ' +
  '</llms.txt>; rel="describedby", </pricing.md>; rel="alternate"; type="text/markdown"';

function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const assets = fakeAssets(SITE_FILES);
  const res = handleSiteRequest(new Request(`${ORIGIN}${path}`, { method, headers }), {
    ASSETS: assets,
  });
  return { res, assets };
}

describe('HTML pages', () => {
  it('carry the discovery Link header and Vary: Accept', async () => {
    const res = await get('/pricing', { accept: 'text/html,*/*;q=0.8' }).res;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('link')).toBe(LINK);
    expect(res.headers.get('vary')).toBe('Accept');
  });

  it('HEAD / carries the Link header with the homepage twin /index.md', async () => {
    const res = await get('/', {}, 'HEAD').res;
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toContain('</.well-known/api-catalog>; rel="api-catalog"');
    expect(res.headers.get('link')).toContain('</index.md>; rel="alternate"; type="text/markdown"');
  });

  it('the console, an application with no twin, links the indexes but no twin', async () => {
    const res = await get('/console').res;
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toContain('</llms.txt>; rel="describedby"');
    expect(res.headers.get('link')).not.toContain('rel="alternate"');
  });

  it('a depth-4 page links its own twin', async () => {
    const res = await get('/learn/memory-basics/retrieval/hybrid-search').res;
    expect(res.headers.get('link')).toContain(
      '</learn/memory-basics/retrieval/hybrid-search.md>; rel="alternate"',
    );
  });
});

describe('negotiated markdown', () => {
  it('answers Accept: text/markdown with the twin bytes, token headers, Vary and Link', async () => {
    const res = await get('/pricing', { accept: 'text/markdown' }).res;
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(SITE_FILES['/pricing.md']);
    expect(res.headers.get('content-type')).toBe(MD);
    expect(res.headers.get('x-markdown-tokens')).toBe('42');
    expect(res.headers.get('x-original-tokens')).toBe('900');
    expect(res.headers.get('vary')).toBe('Accept');
    expect(res.headers.get('link')).toBe(LINK);
  });

  it('serves the homepage twin for / and keeps HTML on a tie', async () => {
    const md = await get('/', { accept: 'text/markdown, text/html;q=0.5' }).res;
    expect(await md.text()).toBe(SITE_FILES['/index.md']);
    const tie = await get('/', { accept: 'text/markdown, text/html' }).res;
    expect(tie.headers.get('content-type')).toContain('text/html');
    expect(tie.headers.get('vary')).toBe('Accept');
  });
});

describe('markdown twins', () => {
  it('serve text/markdown with both token headers and CORS', async () => {
    const res = await get('/pricing.md').res;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(MD);
    expect(res.headers.get('x-markdown-tokens')).toBe('42');
    expect(res.headers.get('x-original-tokens')).toBe('900');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.text()).toBe(SITE_FILES['/pricing.md']);
  });

  it('serve /index.md as the homepage and /auth.md as the twin of /auth', async () => {
    expect(await (await get('/index.md').res).text()).toBe(SITE_FILES['/index.md']);
    const auth = await get('/auth.md').res;
    expect(auth.headers.get('x-markdown-tokens')).toBe('30');
  });

  it('serve a four-segment twin', async () => {
    const res = await get('/learn/memory-basics/retrieval/hybrid-search.md').res;
    expect(res.status).toBe(200);
    expect(res.headers.get('x-markdown-tokens')).toBe('55');
  });

  it('answer a five-segment twin with the markdown 404', async () => {
    const res = await get('/learn/memory-basics/retrieval/hybrid-search/extra.md').res;
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe(MD);
    expect(await res.text()).toMatch(/^# Not found\n/);
  });

  it.each(['/learn%2Fmemory-basics.md', '/learn/memory-basics%2fretrieval.md', '/pricing%2F.md'])(
    'answer a percent-encoded slash (%s) with the markdown 404',
    async (path) => {
      const { res, assets } = get(path);
      const r = await res;
      expect(r.status).toBe(404);
      expect(await r.text()).toMatch(/^# Not found/);
      expect([...assets.requests.keys()].some((p) => p.includes('%2'))).toBe(false);
    },
  );

  it('answer a segment outside the allowed characters with the markdown 404', async () => {
    const res = await get('/pri%20cing.md').res;
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe(MD);
  });

  it('read the manifest once per isolate, not once per request', async () => {
    const assets = fakeAssets(SITE_FILES);
    for (const path of ['/pricing.md', '/index.md', '/auth.md']) {
      await handleSiteRequest(new Request(`${ORIGIN}${path}`), { ASSETS: assets });
    }
    expect(assets.requests.get('/_agent/manifest.json')).toBe(1);
  });
});

describe('machine-readable documents', () => {
  it.each([
    ['/llms.txt', 'text/plain; charset=utf-8'],
    ['/llms-full.txt', 'text/plain; charset=utf-8'],
    ['/sitemap.xml', 'application/xml'],
    ['/sitemap-docs.xml', 'application/xml'],
    ['/openapi.json', 'application/json'],
    ['/.well-known/api-catalog', 'application/linkset+json'],
    ['/.well-known/agent-card.json', 'application/json'],
    ['/.well-known/mcp/server-card.json', 'application/json'],
    ['/.well-known/agent-skills/engram-memory/SKILL.md', MD],
    ['/auth.md', MD],
    ['/api/cloud/pricing.json', 'application/json'],
  ])('%s is served as %s with CORS *', async (path, type) => {
    const res = await get(path).res;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.text()).toBe(SITE_FILES[path]);
  });

  it('answers a CORS preflight on a twin and on the catalogue', async () => {
    for (const path of ['/pricing.md', '/api/cloud/pricing.json', '/.well-known/api-catalog']) {
      const res = await get(
        path,
        { origin: 'https://agent.example', 'access-control-request-method': 'GET' },
        'OPTIONS',
      ).res;
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toContain('GET');
    }
  });
});
