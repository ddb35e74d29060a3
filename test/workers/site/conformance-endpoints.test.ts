// Conformance to spec/website-origin.md section 4 (Endpoints): one test per statement.
import { describe, expect, it } from 'vitest';
import {
  depth,
  get,
  getJson,
  MD,
  OPERATIONS,
  operations,
  pageAtDepth,
  pages,
  type OpenApiDocument,
} from './built-site.ts';

const blogSources = import.meta.glob<string>('/content/blog/*.md', {
  query: '?raw',
  import: 'default',
  eager: true,
});

async function sha256(bytes: ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

describe('4. Endpoints', () => {
  it('All endpoints are GET, take no request body and no query parameters, and need no credentials', async () => {
    const doc = await getJson<OpenApiDocument>('/openapi.json');
    for (const [path, method, op] of operations(doc)) {
      expect(method, path).toBe('get');
      expect(op.requestBody).toBeUndefined();
      expect((op.parameters ?? []).filter((p) => p.in !== 'path')).toEqual([]);
    }
    expect((await get('/pricing.md', { method: 'POST', body: 'x' })).status).toBe(405);
  });

  it('The operation ids are exactly the fifteen of the table, at their paths', async () => {
    const doc = await getJson<OpenApiDocument>('/openapi.json');
    const found = Object.fromEntries(operations(doc).map(([path, , op]) => [op.operationId, path]));
    expect(found).toEqual(OPERATIONS);
  });

  it('getCloudPricing: /api/cloud/pricing.json is application/json, a PricingCatalogue, the same data as the pricing page', async () => {
    const res = await get('/api/cloud/pricing.json');
    expect(res.headers.get('content-type')).toBe('application/json');
    const catalogue = (await res.json()) as Record<string, { name: string }[]>;
    expect(Object.keys(catalogue).sort()).toEqual(
      ['calculator', 'cloud', 'page', 'selfHosted', 'support'].sort(),
    );
    const html = await (await get('/pricing')).text();
    for (const plan of [
      ...(catalogue.cloud ?? []),
      ...(catalogue.selfHosted ?? []),
      ...(catalogue.support ?? []),
    ]) {
      expect(html).toContain(plan.name);
    }
  });

  it('getHomepageMarkdown: /index.md is the homepage as markdown (the homepage alone uses this spelling)', async () => {
    const res = await get('/index.md');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(MD);
    expect(await res.text()).toBe(
      await (await get('/', { headers: { accept: 'text/markdown' } })).text(),
    );
  });

  it.each([
    ['getPageMarkdown', 1],
    ['getSectionPageMarkdown', 2],
    ['getSubsectionPageMarkdown', 3],
    ['getDeepPageMarkdown', 4],
  ])('%s: a page at depth %i has its markdown twin as text/markdown', async (_op, d) => {
    const page = await pageAtDepth(d);
    const res = await get(page.twin);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(MD);
    expect(await res.text()).toMatch(/^# \S/);
  });

  it('getLlmsIndex: /llms.txt is text/plain, a markdown index for language models', async () => {
    const res = await get('/llms.txt');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await res.text();
    expect(text).toMatch(/^# .+\n\n> .+/);
    expect(text).toMatch(/^## .+/m);
    expect(text).toMatch(/^- \[.+\]\(.+\.md\)/m);
  });

  it('getLlmsFull: /llms-full.txt is text/plain, the expanded companion of the index', async () => {
    const res = await get('/llms-full.txt');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const full = await res.text();
    const index = await (await get('/llms.txt')).text();
    expect(full.length).toBeGreaterThan(index.length);
  });

  it('getSitemapIndex: /sitemap.xml is application/xml; every indexable URL appears in one of the per-section sitemaps, each with a lastmod date', async () => {
    const res = await get('/sitemap.xml');
    expect(res.headers.get('content-type')).toBe('application/xml');
    const index = await res.text();
    expect(index).toMatch(/<sitemapindex|<urlset/);
    const sitemaps = [...index.matchAll(/<sitemap>\s*<loc>([^<]+)<\/loc>/g)].map(
      (m) => new URL(m[1] ?? '').pathname,
    );
    const listed = new Set<string>();
    for (const sitemap of sitemaps) {
      const xml = await (await get(sitemap)).text();
      for (const [url] of xml.matchAll(/<url>[\s\S]*?<\/url>/g)) {
        expect(url).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}/);
        listed.add(new URL(/<loc>([^<]+)<\/loc>/.exec(url)?.[1] ?? '').pathname);
      }
    }
    for (const page of await pages()) expect(listed.has(page.path), page.path).toBe(true);
  });

  it('getOpenApiDescription: /openapi.json is an application/json object, advertised as rel=service-desc on every page and in /.well-known/api-catalog', async () => {
    const res = await get('/openapi.json');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect((await res.json()) as OpenApiDocument).toMatchObject({
      openapi: expect.stringMatching(/^3\.1/),
    });
    for (const page of await pages()) {
      const html = await get(page.path);
      expect(html.headers.get('link'), page.path).toContain('</openapi.json>; rel="service-desc"');
      expect(html.headers.get('link'), page.path).toContain(`<${page.twin}>; rel="alternate"`);
      expect(html.headers.get('vary'), page.path).toMatch(/accept/i);
      await html.body?.cancel();
    }
    const catalog = await get('/.well-known/api-catalog');
    expect(catalog.headers.get('content-type')).toBe('application/linkset+json');
    expect(await catalog.text()).toMatch(/"service-desc"[\s\S]*\/openapi\.json/);
  });

  it('getMcpServerCard: an application/json object with the transport, endpoint and documentation of the MCP server', async () => {
    const card = JSON.stringify(await getJson('/.well-known/mcp/server-card.json'));
    expect(card).toMatch(/streamable/i);
    expect(card).toMatch(/\/mcp"/);
    expect(card).toMatch(/documentation/i);
  });

  it('getAgentCard: an application/json agent-to-agent card (skills, supported interfaces, security schemes)', async () => {
    const card = await getJson('/.well-known/agent-card.json');
    expect(Array.isArray(card.skills)).toBe(true);
    expect(card.supportedInterfaces).toBeDefined();
    expect(card.securitySchemes).toBeDefined();
  });

  it('getAiCatalog: each resource has a domain-anchored urn:air identifier and a media type', async () => {
    const catalog = await getJson('/.well-known/ai-catalog.json');
    const entries = (catalog.entries ?? catalog.resources) as Record<string, unknown>[];
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      const values = Object.values(entry).filter((v): v is string => typeof v === 'string');
      expect(values.some((v) => /^urn:air:[a-z0-9.-]+:/.test(v))).toBe(true);
      expect(Object.keys(entry).some((k) => /media_?type/i.test(k))).toBe(true);
    }
  });

  it('getAgentSkillsIndex: lists the published agent skills, each with a URL and a SHA-256 digest of the bytes served', async () => {
    const index = await getJson('/.well-known/agent-skills/index.json');
    const skills = (index.skills ?? index.entries) as { url: string; digest: string }[];
    expect(skills.length).toBeGreaterThanOrEqual(2);
    for (const skill of skills) {
      const res = await get(new URL(skill.url, 'http://x').pathname);
      expect(res.status).toBe(200);
      expect(skill.digest).toBe(`sha256:${await sha256(await res.arrayBuffer())}`);
    }
  });

  it('getAuthGuide: /auth.md is text/markdown, a guide to obtaining and using a credential', async () => {
    const res = await get('/auth.md');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(MD);
    expect(await res.text()).toMatch(/Authorization: Bearer/);
  });
});

describe('4. Path parameters of the markdown twins', () => {
  it('Parameters page, section/page, section/subsection/page and section/subsection/subsubsection/page are required path strings matching ^[A-Za-z0-9._~@-]+$', async () => {
    const doc = await getJson<OpenApiDocument>('/openapi.json');
    const params = operations(doc).flatMap(([, , op]) => op.parameters ?? []);
    expect(params.length).toBe(1 + 2 + 3 + 4);
    for (const p of params) {
      expect(p.in).toBe('path');
      expect(p.required).toBe(true);
      expect(p.schema?.pattern).toBe('^[A-Za-z0-9._~@-]+$');
    }
  });

  it('Four segments is the deepest URL depth; there is one operation per depth', async () => {
    const doc = await getJson<OpenApiDocument>('/openapi.json');
    const depths = Object.keys(doc.paths)
      .filter((p) => p.includes('{'))
      .map((p) => p.split('/').length - 1)
      .sort();
    expect(depths).toEqual([1, 2, 3, 4]);
    for (const page of await pages()) expect(depth(page.path)).toBeLessThanOrEqual(4);
    const deep = await pageAtDepth(4);
    expect((await get(deep.twin.replace(/\.md$/, '/more.md'))).status).toBe(404);
  });

  it('Each segment is a separate parameter; when a client percent-encodes a slash, the response is 404', async () => {
    const page = await pageAtDepth(2);
    const encoded = page.twin.slice(1).replace('/', '%2F');
    const res = await get(`/${encoded}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe(MD);
    expect((await get(`/${page.path.slice(1).replace('/', '%2f')}`)).status).toBe(404);
  });

  it('The markdown twin of any page is the page path with .md appended (for example /pricing gives /pricing.md)', async () => {
    for (const page of await pages()) {
      expect(page.twin).toBe(page.path === '/' ? '/index.md' : `${page.path}.md`);
      const res = await get(page.twin);
      expect(res.status, page.twin).toBe(200);
      await res.body?.cancel();
    }
    expect((await get('/pricing.md')).status).toBe(200);
  });

  it('Blog posts are served from their authored markdown source; every other page is rendered and converted', async () => {
    const posts = Object.entries(blogSources);
    expect(posts.length).toBeGreaterThan(0);
    for (const [file, source] of posts) {
      const slug = /([^/]+)\.md$/.exec(file)?.[1] ?? '';
      const body = source.replace(/^---\n[\s\S]*?\n---\n/, '').trim();
      const twin = (await (await get(`/blog/${slug}.md`)).text()).trim();
      expect(twin, slug).toBe(body);
    }
    const converted = await (await get('/pricing.md')).text();
    expect(converted).not.toMatch(/<(nav|footer|main|div)\b/);
  });

  it("Sending Accept: text/markdown to a page's ordinary URL returns the same document; each page's HTML head advertises its twin with a link element of rel=alternate, type=text/markdown", async () => {
    for (const d of [0, 1, 2, 3, 4]) {
      const page = d === 0 ? { path: '/', twin: '/index.md' } : await pageAtDepth(d);
      const negotiated = await get(page.path, { headers: { accept: 'text/markdown' } });
      expect(negotiated.headers.get('content-type')).toBe(MD);
      expect(negotiated.headers.get('vary')).toMatch(/accept/i);
      expect(await negotiated.text()).toBe(await (await get(page.twin)).text());
      const html = await (await get(page.path, { headers: { accept: 'text/html' } })).text();
      expect(html).toMatch(
        new RegExp(
          `<link[^>]*rel="alternate"[^>]*type="text/markdown"[^>]*href="${page.twin}"|<link[^>]*href="${page.twin}"[^>]*type="text/markdown"`,
        ),
      );
    }
  });

  it('200 responses of the twins carry x-markdown-tokens and x-original-tokens (integers); the body is a CommonMark document that begins with a level-one heading', async () => {
    for (const page of await pages()) {
      const res = await get(page.twin);
      expect(res.headers.get('x-markdown-tokens'), page.twin).toMatch(/^\d+$/);
      expect(res.headers.get('x-original-tokens'), page.twin).toMatch(/^\d+$/);
      expect(Number(res.headers.get('x-markdown-tokens'))).toBe(page.markdownTokens);
      expect(Number(res.headers.get('x-original-tokens'))).toBe(page.originalTokens);
      expect(await res.text(), page.twin).toMatch(/^# \S/);
    }
  });
});
