// Conformance to spec/website-origin.md sections 7 (Errors), 8 (Limits) and 9 (Versioning).
import { describe, expect, it } from 'vitest';
import { get, getJson, MD, pageAtDepth, type OpenApiDocument } from './built-site.ts';

const INDEXES = ['/llms.txt', '/sitemap.xml', '/openapi.json', '/.well-known/api-catalog'];

async function expectMarkdown404(path: string) {
  const res = await get(path);
  expect(res.status, path).toBe(404);
  expect(res.headers.get('content-type'), path).toBe(MD);
  const text = await res.text();
  expect(text).toMatch(/^# Not found/);
  for (const index of INDEXES) expect(text, path).toContain(index);
  expect(text.length).toBeLessThan(2000);
}

describe('7. Errors', () => {
  it('Failures of /api endpoints use RFC 9457 application/problem+json', async () => {
    for (const path of ['/api/nothing', '/api/cloud/nothing.json', '/api/docs/search']) {
      const res = await get(path);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers.get('content-type'), path).toBe('application/problem+json');
    }
  });

  it('Problem fields: type (uri), title, status (integer, repeated), detail, instance (uri), code, resolution, documentation_url (uri)', async () => {
    const res = await get('/api/cloud/plans.json');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.status).toBe(res.status);
    expect(Number.isInteger(body.status)).toBe(true);
    for (const key of ['type', 'title', 'code', 'resolution', 'detail']) {
      expect(typeof body[key], key).toBe('string');
    }
    for (const key of ['type', 'instance', 'documentation_url']) {
      expect(() => new URL(String(body[key])), key).not.toThrow();
    }
    expect(body.documentation_url).toMatch(/\/openapi\.json$/);
    expect(body.type).toMatch(/\/errors\/not-found$/);
  });

  it('Clients match on code, not on prose; one code is resource_not_found', async () => {
    const body = (await (await get('/api/nothing/here')).json()) as { code: string };
    expect(body.code).toBe('resource_not_found');
  });

  it('GET /api/cloud/pricing.json can answer 404 with a Problem body when no resource is served there', async () => {
    const doc = await getJson<OpenApiDocument>('/openapi.json');
    const op = doc.paths['/api/cloud/pricing.json']?.get;
    expect(Object.keys(op?.responses['404']?.content ?? {})).toContain('application/problem+json');
    const res = await get('/api/cloud/pricing.json/');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });

  it("For every non-/api endpoint, a 404 has a text/markdown body: a short markdown document naming the site's indexes (twins, /llms.txt, /llms-full.txt, /sitemap.xml, /openapi.json, the well-known documents, /auth.md)", async () => {
    for (const path of [
      '/no-such-page.md',
      '/docs/no-such-page.md',
      '/llms-fuller.txt',
      '/sitemap-nothing.xml',
      '/.well-known/no-such-card.json',
      '/.well-known/agent-skills/nothing/SKILL.md',
    ]) {
      await expectMarkdown404(path);
    }
  });

  it('An unknown HTML page is the HTML 404 page for a browser and the markdown 404 for a client that prefers markdown', async () => {
    const html = await get('/no-such-page', { headers: { accept: 'text/html,*/*;q=0.8' } });
    expect(html.status).toBe(404);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await html.text()).toMatch(/<html/i);
    const md = await get('/no-such-page', { headers: { accept: 'text/markdown' } });
    expect(md.status).toBe(404);
    expect(md.headers.get('content-type')).toBe(MD);
  });
});

describe('8. Limits', () => {
  it('Markdown twins: at most four path segments', async () => {
    const deep = await pageAtDepth(4);
    expect((await get(deep.twin)).status).toBe(200);
    await expectMarkdown404(`${deep.path}/extra.md`);
    await expectMarkdown404('/a/b/c/d/e.md');
  });
});

describe('9. Versioning', () => {
  it('The description of this origin carries version 1.0.0', async () => {
    const doc = await getJson<OpenApiDocument>('/openapi.json');
    expect(doc.info.version).toBe('1.0.0');
  });

  it('The studio key of a plan keeps the former tool name so that existing consumers keep working', async () => {
    const catalogue = await getJson<{ cloud: Record<string, unknown>[] }>(
      '/api/cloud/pricing.json',
    );
    for (const plan of catalogue.cloud) {
      expect(plan.workbench, String(plan.id)).toMatchObject({
        plan: expect.stringMatching(/^(free|start|scale|enterprise)$/),
      });
      expect(plan.studio).toBeUndefined();
    }
  });
});
