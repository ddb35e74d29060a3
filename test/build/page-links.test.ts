import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeEntities, isAppPage } from '../../src/integrations/site-pages.ts';
import { DIST, distFiles, read, SITE } from './dist.ts';

/** Served by the Worker, not by files in dist/. */
const WORKER = [
  /^\/api\/v1(\/.*)?$/,
  /^\/mcp$/,
  /^\/health$/,
  /^\/\.well-known\/oauth-[a-z-]+$/,
  /^\/oauth\/(authorize|token|register)$/,
  /^\/api\/learn\/[^/]+\.json$/,
  /^\/api\/docs\/search$/,
];

function target(path: string): boolean {
  if (WORKER.some((r) => r.test(path))) return true;
  if (path === '/') return true;
  const rel = path.slice(1);
  return [rel, `${rel}.html`].some((f) => existsSync(join(DIST, f)));
}

describe('links on the HTML pages', () => {
  const pages = distFiles().filter((f) => f.endsWith('.html'));

  it('every same-origin href and src resolves to a page, a file or a Worker route', () => {
    const broken: string[] = [];
    for (const file of pages) {
      const base = new URL(`/${file.replace(/\.html$/, '').replace(/^index$/, '')}`, SITE);
      for (const [, raw] of read(file).matchAll(/\s(?:href|src)="([^"]+)"/g)) {
        const url = new URL(decodeEntities(raw ?? ''), base);
        if (url.origin !== new URL(SITE).origin) continue;
        if (!target(decodeURIComponent(url.pathname))) broken.push(`${file} -> ${raw}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every page except 404 advertises its twin, which exists', () => {
    for (const file of pages) {
      const alt = /<link rel="alternate" type="text\/markdown" href="([^"]+)"/.exec(read(file));
      if (file === '404.html' || isAppPage(file)) {
        expect(alt).toBeNull();
        continue;
      }
      expect(alt?.[1], file).toBe(
        file === 'index.html' ? '/index.md' : `/${file.replace(/\.html$/, '.md')}`,
      );
      expect(existsSync(join(DIST, alt?.[1] ?? '')), file).toBe(true);
    }
  });
});
