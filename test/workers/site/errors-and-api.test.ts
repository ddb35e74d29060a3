import { describe, expect, it, vi } from 'vitest';
import { handleSiteRequest, type SiteEnv } from '../../../functions/site/app.ts';
import { fakeAssets, SITE_FILES } from './fake-assets.ts';

const ORIGIN = 'https://engram.example';
const MD = 'text/markdown; charset=utf-8';

function send(path: string, init: RequestInit = {}, env: Partial<SiteEnv> = {}) {
  return handleSiteRequest(new Request(`${ORIGIN}${path}`, init), {
    ASSETS: fakeAssets(SITE_FILES),
    ...env,
  });
}

interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: string;
  resolution: string;
  documentation_url: string;
}

describe('/api 404s are RFC 9457 problems', () => {
  it.each(['/api/nothing', '/api/cloud/missing.json', '/api', '/api/learn/a/b.json'])(
    '%s -> application/problem+json with every field',
    async (path) => {
      const res = await send(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const body = (await res.json()) as Problem;
      expect(body).toEqual({
        type: `${ORIGIN}/errors/not-found`,
        title: 'Not found',
        status: 404,
        detail: `No resource is served at ${path}.`,
        instance: `${ORIGIN}${path}`,
        code: 'resource_not_found',
        resolution: expect.any(String),
        documentation_url: `${ORIGIN}/openapi.json`,
      });
      expect(body.resolution.length).toBeGreaterThan(10);
    },
  );

  it('uses ERROR_TYPE_BASE for the type when it is set', async () => {
    const res = await send('/api/nothing', {}, { ERROR_TYPE_BASE: 'https://docs.example/e/' });
    expect(((await res.json()) as Problem).type).toBe('https://docs.example/e/not-found');
  });

  it('answers a percent-encoded slash under /api with a problem', async () => {
    const res = await send('/api/cloud%2Fpricing.json');
    expect(res.status).toBe(404);
    expect(((await res.json()) as Problem).code).toBe('resource_not_found');
  });
});

describe('404s elsewhere', () => {
  it.each([
    '/nothing.md',
    '/llms-extra.txt',
    '/sitemap-nothing.xml',
    '/.well-known/nothing.json',
    '/.well-known/agent-skills/nothing/SKILL.md',
  ])('%s -> the markdown 404 naming the indexes', async (path) => {
    const res = await send(path);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe(MD);
    const text = await res.text();
    expect(text).toMatch(/^# Not found\n/);
    for (const index of [
      '/llms.txt',
      '/sitemap.xml',
      '/openapi.json',
      '/.well-known/api-catalog',
    ]) {
      expect(text).toContain(index);
    }
  });

  it('an unknown page is the HTML 404 page for a browser', async () => {
    const res = await send('/no-such-page', { headers: { accept: 'text/html,*/*;q=0.8' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toBe(SITE_FILES['/404.html']);
    expect(res.headers.get('vary')).toBe('Accept');
  });

  it('an unknown page is the markdown 404 for a client that prefers markdown', async () => {
    const res = await send('/no-such-page', { headers: { accept: 'text/markdown' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe(MD);
    expect(await res.text()).toMatch(/^# Not found/);
  });

  it.each(['/_agent/manifest.json', '/_agent/search-index.json', '/_agent', '/404'])(
    'never serves the private prefix, nor the 404 page with a 200: %s is 404',
    async (path) => {
      const res = await send(path);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('o200k_base');
    },
  );
});

describe('methods', () => {
  it('a non-GET on a page is a plain 405 with Allow: GET, HEAD', async () => {
    const res = await send('/pricing', { method: 'POST', body: 'x' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  it('a non-GET under /api is a 405 problem', async () => {
    const res = await send('/api/cloud/pricing.json', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(((await res.json()) as Problem).code).toBe('method_not_allowed');
  });
});

describe('the two endpoints left out of the description', () => {
  it.each(['memory-basics', 'building-agents', 'no-such-course'])(
    'GET /api/learn/%s.json answers 200 []',
    async (course) => {
      const res = await send(`/api/learn/${course}.json`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toEqual([]);
    },
  );

  it('GET /api/docs/search ranks the twins with title, urls, snippet and score', async () => {
    const res = await send('/api/docs/search?q=reciprocal+rank+fusion');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = (await res.json()) as { query: string; results: Record<string, unknown>[] };
    expect(body.query).toBe('reciprocal rank fusion');
    expect(body.results).toHaveLength(1);
    expect(body.results[0]).toEqual({
      title: 'Hybrid search',
      url: 'https://engram.example/learn/memory-basics/retrieval/hybrid-search',
      markdown_url: 'https://engram.example/learn/memory-basics/retrieval/hybrid-search.md',
      snippet: expect.stringContaining('Reciprocal Rank Fusion'),
      score: expect.any(Number),
    });
  });

  it.each(['/api/docs/search', '/api/docs/search?q=', '/api/docs/search?q=%20%20'])(
    '%s (missing or empty q) is a 400 validation problem',
    async (path) => {
      const res = await send(path);
      expect(res.status).toBe(400);
      const body = (await res.json()) as Problem;
      expect(body.code).toBe('validation_error');
      expect(body.type).toBe(`${ORIGIN}/errors/validation-error`);
      expect(body.detail).toContain('`q`');
    },
  );

  it('rejects a limit outside 1..50 with a 400 problem', async () => {
    const res = await send('/api/docs/search?q=bm25&limit=500');
    expect(res.status).toBe(400);
  });

  it('proxies to DOCS_SEARCH_ORIGIN with the same path and query when it is set', async () => {
    const upstream = vi.fn(async (request: Request) =>
      Response.json({ query: 'x', results: [], via: request.url }),
    );
    const res = await handleSiteRequest(
      new Request(`${ORIGIN}/api/docs/search?q=hybrid&limit=3`),
      { ASSETS: fakeAssets(SITE_FILES), DOCS_SEARCH_ORIGIN: 'https://search.example' },
      upstream,
    );
    expect(upstream).toHaveBeenCalledTimes(1);
    expect(((await res.json()) as { via: string }).via).toBe(
      'https://search.example/api/docs/search?q=hybrid&limit=3',
    );
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('refuses a missing q before proxying', async () => {
    const upstream = vi.fn(async () => Response.json({}));
    const res = await handleSiteRequest(
      new Request(`${ORIGIN}/api/docs/search`),
      { ASSETS: fakeAssets(SITE_FILES), DOCS_SEARCH_ORIGIN: 'https://search.example' },
      upstream,
    );
    expect(res.status).toBe(400);
    expect(upstream).not.toHaveBeenCalled();
  });

  it('answers 503 when the search origin cannot be reached', async () => {
    const res = await handleSiteRequest(
      new Request(`${ORIGIN}/api/docs/search?q=hybrid`),
      { ASSETS: fakeAssets(SITE_FILES), DOCS_SEARCH_ORIGIN: 'https://search.example' },
      () => Promise.reject(new Error('connection refused')),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
  });
});
