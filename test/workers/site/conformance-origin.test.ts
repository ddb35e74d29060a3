// Conformance of the website origin to spec/website-origin.md sections 1 and 5: one test per
// statement, named after it. Runs the real Worker over the real dist/ (`npm run build` first).
import { describe, expect, it } from 'vitest';
import {
  get,
  getJson,
  MD,
  OPERATIONS,
  operations,
  pageAtDepth,
  type OpenApiDocument,
} from './built-site.ts';

describe('1. What the service does', () => {
  it('The origin serves programmatic clients with three groups of read-only resources: data (the pricing catalogue as JSON), content (a markdown rendering of every page) and discovery (well-known documents)', async () => {
    const data = await get('/api/cloud/pricing.json');
    expect(data.headers.get('content-type')).toBe('application/json');
    expect(typeof (await data.json())).toBe('object');
    const content = await get((await pageAtDepth(1)).twin);
    expect(content.headers.get('content-type')).toBe(MD);
    for (const doc of ['/.well-known/mcp/server-card.json', '/.well-known/agent-card.json']) {
      expect((await get(doc)).headers.get('content-type')).toBe('application/json');
    }
    const write = await get('/api/cloud/pricing.json', { method: 'PUT', body: '{}' });
    expect(write.status).toBe(405);
  });

  it('It is not the product API: the platform API, the database engine HTTP API and the MCP server are separate surfaces, and the MCP card is at /.well-known/mcp/server-card.json', async () => {
    const doc = await getJson<OpenApiDocument>('/openapi.json');
    for (const path of Object.keys(doc.paths)) {
      expect(path).not.toMatch(/^\/(api\/v1|sql|key|mcp)(\/|$)/);
    }
    const card = JSON.stringify(await getJson('/.well-known/mcp/server-card.json'));
    expect(card).toMatch(/streamable/i);
    expect(card).toContain('/mcp');
  });

  it('Everything on this origin is public and unauthenticated', async () => {
    for (const path of Object.values(OPERATIONS)) {
      const concrete = path.includes('{')
        ? (await pageAtDepth(path.split('/').length - 1)).twin
        : path;
      const res = await get(concrete);
      expect(res.status, concrete).toBe(200);
      await res.body?.cancel();
    }
  });

  it('Two endpoints exist on the origin but are deliberately left out of the described surface', async () => {
    const doc = await getJson<OpenApiDocument>('/openapi.json');
    const paths = Object.keys(doc.paths);
    expect(paths.some((p) => p.startsWith('/api/docs'))).toBe(false);
    expect(paths.some((p) => p.startsWith('/api/learn'))).toBe(false);
    expect((await get('/api/docs/search?q=memory')).status).toBe(200);
    expect((await get('/api/learn/memory-basics.json')).status).toBe(200);
  });

  it('GET /api/docs/search is a rewrite to a separate documentation search service and answers with JSON', async () => {
    const res = await get('/api/docs/search?q=hybrid%20search');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = (await res.json()) as { results: { url: string; markdown_url: string }[] };
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results[0]?.markdown_url).toMatch(/\.md$/);
  });

  it('A client must not call GET /api/docs/search from a generated description', async () => {
    const text = await (await get('/openapi.json')).text();
    expect(text).not.toContain('/api/docs/search');
    expect(text).not.toContain('/api/learn');
  });

  it('GET /api/learn/{course}.json answers 200 with an empty array for every course', async () => {
    for (const course of ['memory-basics', 'building-agents', 'a-course-that-does-not-exist']) {
      const res = await get(`/api/learn/${course}.json`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toEqual([]);
    }
  });

  it('The courses are read as ordinary pages under /learn through the markdown twins', async () => {
    const learn = await get('/learn.md');
    expect(learn.status).toBe(200);
    expect(await learn.text()).toMatch(/^# /);
    // Depth 4 also holds API reference pages (/docs/reference/<api>/<operation>).
    const lesson = await pageAtDepth(4, '/learn/');
    expect(lesson.path.startsWith('/learn/')).toBe(true);
    expect((await get(lesson.twin)).status).toBe(200);
  });
});

describe('5. Authentication', () => {
  it('No endpoint on this origin requires authentication (the description declares an empty security requirement)', async () => {
    const doc = await getJson<OpenApiDocument>('/openapi.json');
    expect(doc.security).toEqual([]);
    for (const [, , op] of operations(doc)) {
      expect(op.security === undefined || op.security.length === 0).toBe(true);
    }
  });

  it('The MCP server card states that the MCP server needs an account or a personal access token; that server is a separate surface', async () => {
    const card = await getJson('/.well-known/mcp/server-card.json');
    expect(JSON.stringify(card)).toMatch(/bearer|oauth|api key|token/i);
  });

  it('/auth.md explains the OAuth 2.0 flow, scopes and unauthorised responses (decided: not shown in the spec)', async () => {
    const res = await get('/auth.md');
    expect(res.headers.get('content-type')).toBe(MD);
    const text = await res.text();
    expect(text).toMatch(/^# /);
    for (const needle of ['OAuth', '401', '403', 'memory:read']) expect(text).toContain(needle);
  });
});
