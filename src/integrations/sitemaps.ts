import type { SitePage } from './site-pages.ts';
import { byReadingOrder, sectionRank } from './sections.ts';
import { newest } from '../lib/git-lastmod.ts';

function xmlEscape(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Absolute HTML URL of a page: `https://site/` for the homepage, no trailing slash elsewhere. */
export function pageUrl(path: string, site: string): string {
  return new URL(path, site).href;
}

/** /sitemap.xml as a sitemap index, plus one /sitemap-<section>.xml per section (URL path -> XML). */
export function buildSitemaps(pages: readonly SitePage[], site: string): Map<string, string> {
  const files = new Map<string, string>();
  const sections = [...new Set(pages.map((p) => p.section))].sort(
    (a, b) => sectionRank(a) - sectionRank(b) || a.localeCompare(b),
  );
  const index: string[] = [];
  for (const section of sections) {
    const inSection = pages.filter((p) => p.section === section).sort(byReadingOrder);
    const urls = inSection.map(
      (p) =>
        `  <url>\n    <loc>${xmlEscape(pageUrl(p.path, site))}</loc>\n    <lastmod>${p.lastmod}</lastmod>\n  </url>`,
    );
    const path = `/sitemap-${section}.xml`;
    files.set(
      path,
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
    );
    const lastmod = newest(
      inSection.map((p) => p.lastmod),
      '0000-00-00',
    );
    index.push(
      `  <sitemap>\n    <loc>${xmlEscape(new URL(path, site).href)}</loc>\n    <lastmod>${lastmod}</lastmod>\n  </sitemap>`,
    );
  }
  files.set(
    '/sitemap.xml',
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${index.join('\n')}\n</sitemapindex>\n`,
  );
  return files;
}
