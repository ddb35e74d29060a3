import { describe, expect, it } from 'vitest';
import { CONSOLE_VIEWS } from '../../src/components/console/console-nav.ts';
import { distFiles, manifest, read, SITE } from './dist.ts';

/**
 * The memory console is an application, not content (docs/console.md): its pages are built, but
 * no agent-facing output lists them, and they get no markdown twin.
 */
const files = distFiles();
const consoleHtml = files.filter((f) => f === 'console.html' || f.startsWith('console/'));

describe('console pages in the build', () => {
  it('builds one page per view of the navigation, and the OAuth sign-in callback', () => {
    const views = CONSOLE_VIEWS.map((v) => `${v.href.slice(1)}.html`);
    // Not a view: where /authorize sends the reader back with the one-time code.
    const expected = [...views, 'console/callback.html'].sort();
    expect(consoleHtml.sort()).toEqual(expected);
  });

  it('has no twin and is in no index, sitemap, manifest or search index', () => {
    expect(files.filter((f) => /^console(\/.*)?\.md$/.test(f))).toEqual([]);
    const listed = [
      ...files.filter((f) => /^llms[^/]*\.txt$/.test(f) || /^sitemap[^/]*\.xml$/.test(f)),
      '_agent/search-index.json',
    ];
    // Pages are listed by absolute URL; the docs page /docs/console may mention /console in its text.
    for (const file of listed) expect(read(file), file).not.toContain(`${SITE}/console`);
    expect(Object.keys(manifest().pages).filter((p) => p.startsWith('/console'))).toEqual([]);
  });

  it('loads its scripts as bundled modules only, never inline beyond the theme script', () => {
    for (const file of consoleHtml) {
      const html = read(file);
      const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1] ?? '');
      expect(scripts.filter((a) => a.includes('src=')).length, file).toBeGreaterThan(0);
      for (const attrs of scripts.filter((a) => a.includes('src='))) {
        expect(attrs, file).toMatch(/type="module" src="\/_astro\//);
      }
      expect(scripts.filter((a) => !a.includes('src=')).length, file).toBe(1);
    }
  });
});
