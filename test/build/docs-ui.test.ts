import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { distFiles, read, SITE } from './dist.ts';

/**
 * The docs shell in the built output: CSP-ready scripts, navigation kept out of the twins, and
 * one API reference page (with twin, llms.txt and sitemap entries) per OpenAPI operation.
 */
const html = distFiles().filter((f) => f.endsWith('.html'));
const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;
const sha256 = (text: string): string =>
  `sha256-${createHash('sha256').update(text).digest('base64')}`;

describe('scripts a Content-Security-Policy can allow', () => {
  const inline = new Set<string>();
  for (const f of html) for (const m of read(f).matchAll(INLINE_SCRIPT)) inline.add(m[1] ?? '');

  it('has exactly one inline script (the theme script), the same on every page', () => {
    expect(inline.size).toBe(1);
  });

  it('documents that script’s sha256 in docs/site-docs-ui.md for the CSP', () => {
    const doc = readFileSync('docs/site-docs-ui.md', 'utf8');
    for (const body of inline) expect(doc).toContain(sha256(body));
  });

  it('uses no inline event handler attributes and loads no third-party script or stylesheet', () => {
    for (const f of html) {
      const page = read(f);
      expect(page, f).not.toMatch(/\son[a-z]+=["']/i);
      expect(page, f).not.toMatch(/<script[^>]*\bsrc="(https?:)?\/\//);
      expect(page, f).not.toMatch(/<link[^>]*rel="stylesheet"[^>]*href="(https?:)?\/\//);
    }
  });
});

describe('docs navigation stays out of the twins', () => {
  it('renders sidebar, TOC, breadcrumbs and agent menu outside <main>', () => {
    const page = read('docs/quickstart.html');
    const main = page.slice(page.indexOf('<main'), page.indexOf('</main>'));
    for (const marker of [
      'docs-sidebar',
      'docs-toc',
      'breadcrumbs',
      'data-agent-menu',
      'prev-next',
    ]) {
      expect(page).toContain(marker);
      expect(main).not.toContain(marker);
    }
  });

  it('keeps sidebar links and menu labels out of the twin', () => {
    const twin = read('docs/quickstart.md');
    expect(twin).not.toContain('Copy page');
    expect(twin).not.toContain('On this page');
    expect(twin).not.toContain('Memory API reference');
    expect(twin).toMatch(/Last updated \d{4}-\d{2}-\d{2}\./);
  });
});

describe('API reference', () => {
  const pages = html.filter((f) => f.startsWith('docs/reference/'));
  const memory = JSON.parse(readFileSync('.astro/api-reference/memory-openapi.json', 'utf8')) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  const origin = JSON.parse(read('openapi.json')) as typeof memory;
  const ids = (doc: typeof memory): string[] =>
    Object.values(doc.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => (op.operationId ? [op.operationId] : [])),
    );
  const kebab = (id: string): string => id.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  const expected = [
    ...ids(memory).map((id) => `docs/reference/memory/${kebab(id)}.html`),
    ...ids(origin).map((id) => `docs/reference/site/${kebab(id)}.html`),
  ].sort();

  it('has one page per operation of both OpenAPI documents', () => {
    expect(ids(origin)).toHaveLength(15);
    expect(ids(memory).length).toBeGreaterThan(20);
    expect(pages.sort()).toEqual(expected);
  });

  it('lists every reference page’s twin in llms.txt and its URL in the docs sitemap', () => {
    const llms = read('llms.txt');
    const sitemap = read('sitemap-docs.xml');
    for (const page of expected) {
      const path = `/${page.replace(/\.html$/, '')}`;
      expect(llms).toContain(`${SITE}${path}.md`);
      expect(sitemap).toContain(`<loc>${SITE}${path}</loc>`);
    }
  });

  it('prints method, path, auth, parameters, bodies, three examples and linked errors', () => {
    const twin = read('docs/reference/memory/query-memory.md');
    expect(twin.startsWith('# Query memory\n')).toBe(true);
    expect(twin).toContain('POST `/api/v1/{context_id}/query`');
    expect(twin).toMatch(/\*\*Authentication:\*\* Bearer API key/);
    expect(twin).toMatch(/\| `context_id` required \| path \|/);
    expect(twin).toMatch(/\| `query` required +\| string/);
    expect(twin).toMatch(/\| `results\[\]\.score` required +\| number/);
    expect(twin).toContain('```sh\ncurl -s -X POST "$BASE/api/v1/acme/query"');
    expect(twin).toContain("await memory.recall('where is the Platform team'");
    expect(twin).toContain('memory.recall("where is the Platform team"');
    expect(twin).toContain('[Validation error (validation-error)](/errors/validation-error)');
    expect(twin).toContain('[Rate limited');
  });

  it('documents the origin’s public operations as needing no credentials', () => {
    const twin = read('docs/reference/site/get-cloud-pricing.md');
    expect(twin).toContain('GET `/api/cloud/pricing.json`');
    expect(twin).toContain('None: public, no credentials.');
  });
});
