import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isAppPage } from '../lib/app-pages.ts';

export { isAppPage };

/** One rendered HTML page found in dist/, with what its head says about it. */
export interface SitePage {
  /** `/`, `/pricing`, `/learn/a/b/c`. */
  path: string;
  /** `/index.md`, `/pricing.md`. */
  twin: string;
  /** dist-relative HTML file, e.g. `pricing.html`. */
  htmlFile: string;
  html: string;
  title: string;
  description: string;
  lastmod: string;
  section: string;
}

export const SEGMENT = /^[A-Za-z0-9._~@-]+$/;
export const MAX_SEGMENTS = 4;

/** Sections that get their own sitemap and llms.txt heading; anything else is `pages`. */
const SECTIONS = new Set(['pricing', 'docs', 'blog', 'learn', 'errors']);

export function sectionOf(path: string): string {
  const first = path.split('/').filter(Boolean)[0];
  if (first === undefined) return 'home';
  return SECTIONS.has(first) ? first : 'pages';
}

export function twinOf(path: string): string {
  return path === '/' ? '/index.md' : `${path}.md`;
}

/** `pricing.html` -> `/pricing`, `index.html` -> `/`. */
export function pathOfHtmlFile(file: string): string {
  const clean = file
    .split(sep)
    .join('/')
    .replace(/\.html$/, '');
  if (clean === 'index') return '/';
  return `/${clean.replace(/\/index$/, '')}`;
}

/** Fails the build for a page URL an agent could not fetch as a twin. */
export function checkPagePath(path: string, file: string): void {
  const segments = path.split('/').filter(Boolean);
  if (segments.length > MAX_SEGMENTS) {
    throw new Error(
      `Page ${path} (${file}) has ${segments.length} path segments; twins allow at most ${MAX_SEGMENTS}. Move it up a level.`,
    );
  }
  for (const s of segments) {
    if (!SEGMENT.test(s)) {
      throw new Error(
        `Page ${path} (${file}): segment "${s}" does not match ${SEGMENT.source}. Rename the file or its slug.`,
      );
    }
  }
}

/** Every page of the site: each .html in dist/ except the 404 page and app pages, sorted by path. */
export async function collectPages(outDir: string): Promise<SitePage[]> {
  const files = (await listFiles(outDir)).filter(
    (f) => f.endsWith('.html') && f !== '404.html' && !f.startsWith('_') && !isAppPage(f),
  );
  const pages = await Promise.all(
    files.map(async (htmlFile): Promise<SitePage> => {
      const path = pathOfHtmlFile(htmlFile);
      checkPagePath(path, htmlFile);
      const html = await readFile(join(outDir, htmlFile), 'utf8');
      const title = requireMeta(html, 'engram:title', htmlFile);
      return {
        path,
        twin: twinOf(path),
        htmlFile,
        html,
        title,
        description: metaContent(html, 'description') ?? '',
        lastmod: requireMeta(html, 'engram:lastmod', htmlFile),
        section: sectionOf(path),
      };
    }),
  );
  return pages.sort((a, b) => a.path.localeCompare(b.path));
}

export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'));
}

function requireMeta(html: string, name: string, file: string): string {
  const value = metaContent(html, name);
  if (!value) {
    throw new Error(
      `${file}: missing <meta name="${name}">. Render the page with src/layouts/Base.astro and pass its ${name.split(':')[1]}.`,
    );
  }
  return value;
}

/** Reads `<meta name="x" content="...">` as Astro renders it (name before content). */
export function metaContent(html: string, name: string): string | undefined {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`<meta name="${escaped}" content="([^"]*)"`, 'i').exec(html);
  return match?.[1] === undefined ? undefined : decodeEntities(match[1]);
}

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    const lower = e.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[lower] ?? _;
  });
}
