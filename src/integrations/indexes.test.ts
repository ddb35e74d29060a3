import { describe, expect, it } from 'vitest';
import { buildLlmsFull, buildLlmsTxt } from './llms-txt.ts';
import type { TwinnedPage } from './page-twins.ts';
import { buildSitemaps } from './sitemaps.ts';

const SITE = 'https://engram.example';

function page(path: string, section: string, lastmod: string, title = path): TwinnedPage {
  return {
    path,
    twin: path === '/' ? '/index.md' : `${path}.md`,
    htmlFile: '',
    html: '',
    title,
    description: `About\n${title}`,
    lastmod,
    section,
    markdown: `# ${title}\n\nBody of ${path}.\n`,
  };
}

const PAGES = [
  page('/docs/b', 'docs', '2026-02-01'),
  page('/auth', 'pages', '2026-01-05', 'Auth [keys]'),
  page('/', 'home', '2026-03-01', 'Engram'),
  page('/docs', 'docs', '2026-01-01'),
  page('/blog/a&b', 'blog', '2026-04-01'),
];

describe('buildLlmsTxt', () => {
  const text = buildLlmsTxt(PAGES, SITE);

  it('orders sections home, docs, blog, pages and pages by path', () => {
    const h2 = text.split('\n').filter((l) => l.startsWith('## '));
    expect(h2.slice(0, 4)).toEqual([
      '## Home',
      '## Docs',
      '## Blog',
      '## About, policies and guides',
    ]);
    expect(text.indexOf('/docs.md')).toBeLessThan(text.indexOf('/docs/b.md'));
  });

  it('writes one-line items with absolute twin URLs; brackets and newlines cannot break them', () => {
    expect(text).toContain('- [Auth keys](https://engram.example/auth.md): About Auth [keys]');
    expect(text).toContain('- [Engram](https://engram.example/index.md): About Engram');
  });
});

describe('buildLlmsFull', () => {
  it('is stable whatever the input order', () => {
    expect(buildLlmsFull([...PAGES].reverse(), SITE)).toBe(buildLlmsFull(PAGES, SITE));
  });
});

describe('buildSitemaps', () => {
  const files = buildSitemaps(PAGES, SITE);

  it('writes one urlset per section and an index dated by each section’s newest page', () => {
    expect([...files.keys()].sort()).toEqual([
      '/sitemap-blog.xml',
      '/sitemap-docs.xml',
      '/sitemap-home.xml',
      '/sitemap-pages.xml',
      '/sitemap.xml',
    ]);
    expect(files.get('/sitemap.xml')).toContain(
      '<loc>https://engram.example/sitemap-docs.xml</loc>\n    <lastmod>2026-02-01</lastmod>',
    );
  });

  it('escapes XML in URLs and dates every URL', () => {
    expect(files.get('/sitemap-blog.xml')).toContain(
      '<loc>https://engram.example/blog/a&#38;b</loc>\n    <lastmod>2026-04-01</lastmod>',
    );
    expect(files.get('/sitemap-home.xml')).toContain('<loc>https://engram.example/</loc>');
  });
});
