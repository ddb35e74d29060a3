import { describe, expect, it } from 'vitest';
import { distFiles, htmlPages, manifest, read, SITE } from './dist.ts';

const locs = (xml: string): string[] =>
  [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? '');
const pageUrl = (path: string): string => (path === '/' ? `${SITE}/` : `${SITE}${path}`);

describe('sitemaps', () => {
  const index = read('sitemap.xml');
  const children = locs(index);

  it('/sitemap.xml is a sitemap index of per-section sitemaps, each with a lastmod', () => {
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(index).not.toContain('<urlset');
    expect(children.length).toBeGreaterThanOrEqual(5);
    for (const loc of children) expect(loc).toMatch(new RegExp(`^${SITE}/sitemap-[a-z]+\\.xml$`));
    const entries = [...index.matchAll(/<sitemap>([\s\S]*?)<\/sitemap>/g)];
    for (const [, e] of entries) expect(e).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/);
    for (const section of ['home', 'pricing', 'docs', 'blog', 'errors', 'pages']) {
      expect(children).toContain(`${SITE}/sitemap-${section}.xml`);
    }
  });

  it('lists every HTML page exactly once, with its lastmod from the manifest', () => {
    const m = manifest();
    const seen: string[] = [];
    for (const child of children) {
      const xml = read(new URL(child).pathname);
      expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      for (const [, url] of xml.matchAll(/<url>([\s\S]*?)<\/url>/g)) {
        const loc = /<loc>([^<]+)<\/loc>/.exec(url ?? '')?.[1] ?? '';
        const lastmod = /<lastmod>([^<]+)<\/lastmod>/.exec(url ?? '')?.[1];
        const path = new URL(loc).pathname;
        expect(lastmod, loc).toBe(m.pages[path]?.lastmod);
        seen.push(path);
      }
    }
    expect(seen.sort()).toEqual(htmlPages());
  });

  it('uses absolute HTML page URLs, not twins', () => {
    const all = children.flatMap((c) => locs(read(new URL(c).pathname)));
    for (const loc of all) {
      expect(loc.startsWith(`${SITE}/`)).toBe(true);
      expect(loc.endsWith('.md')).toBe(false);
    }
    expect(all).toContain(pageUrl('/'));
  });
});

describe('llms.txt', () => {
  const text = read('llms.txt');
  const lines = text.split('\n');

  it('opens with an H1 and a blockquote summary', () => {
    expect(lines[0]).toBe('# Engram');
    expect(lines[1]).toBe('');
    expect(lines[2]).toMatch(/^> \S/);
  });

  it('has H2 sections made only of `- [title](url): note` items', () => {
    const h2 = lines.filter((l) => l.startsWith('## '));
    expect(h2.length).toBeGreaterThanOrEqual(5);
    const start = lines.findIndex((l) => l.startsWith('## '));
    for (const line of lines.slice(start)) {
      if (line === '' || line.startsWith('## ')) continue;
      expect(line).toMatch(/^- \[[^\]]+\]\(https?:\/\/[^)\s]+\)(: .+)?$/);
    }
    expect(lines.some((l) => /^#{3,} /.test(l))).toBe(false);
  });

  it('links the absolute twin of every page', () => {
    for (const entry of Object.values(manifest().pages)) {
      expect(text).toContain(`](${SITE}${entry.twin})`);
    }
  });
});

describe('llms-full.txt', () => {
  const text = read('llms-full.txt');

  it('contains every twin whole, in the same stable order as llms.txt', () => {
    const order = [...read('llms.txt').matchAll(/\]\((https?:\/\/[^)]+\.md)\)/g)].map(
      (m) => new URL(m[1] ?? '').pathname,
    );
    let at = 0;
    for (const twin of order) {
      const body = read(twin).trimEnd();
      const found = text.indexOf(body, at);
      expect(found, twin).toBeGreaterThanOrEqual(at);
      at = found + body.length;
    }
  });

  it('introduces every page with a comment naming its URL', () => {
    const count = (text.match(/^<!-- page: /gm) ?? []).length;
    expect(count).toBe(Object.keys(manifest().pages).length);
    expect(text.startsWith('# ')).toBe(true);
  });
});

describe('robots.txt', () => {
  const robots = read('robots.txt');

  it('names AI crawlers, a Content-Signal and the sitemap', () => {
    for (const bot of [
      'GPTBot',
      'ClaudeBot',
      'Claude-User',
      'PerplexityBot',
      'Google-Extended',
      'CCBot',
    ]) {
      expect(robots).toContain(`User-agent: ${bot}`);
    }
    expect(robots).toContain('Content-Signal: search=yes, ai-input=yes, ai-train=no');
    expect(robots).toContain(`Sitemap: ${SITE}/sitemap.xml`);
  });

  it('keeps the agent manifest folder out of crawls', () => {
    expect(robots).toContain('Disallow: /_agent/');
    expect(distFiles()).toContain('_agent/manifest.json');
  });
});
