import { describe, expect, it } from 'vitest';
import {
  checkPagePath,
  decodeEntities,
  metaContent,
  pathOfHtmlFile,
  sectionOf,
  twinOf,
} from './site-pages.ts';

describe('page paths', () => {
  it.each([
    ['index.html', '/'],
    ['pricing.html', '/pricing'],
    ['docs.html', '/docs'],
    [
      'learn/memory-basics/retrieval/hybrid-search.html',
      '/learn/memory-basics/retrieval/hybrid-search',
    ],
    ['docs/api/index.html', '/docs/api'],
  ])('%s is the page %s', (file, path) => {
    expect(pathOfHtmlFile(file)).toBe(path);
  });

  it.each([
    ['/', '/index.md'],
    ['/pricing', '/pricing.md'],
    ['/learn/a/b/c', '/learn/a/b/c.md'],
  ])('the twin of %s is %s', (path, twin) => {
    expect(twinOf(path)).toBe(twin);
  });

  it.each([
    ['/', 'home'],
    ['/pricing', 'pricing'],
    ['/docs/api/facts', 'docs'],
    ['/learn/a', 'learn'],
    ['/blog/x', 'blog'],
    ['/errors/not-found', 'errors'],
    ['/auth', 'pages'],
  ])('%s belongs to section %s', (path, section) => {
    expect(sectionOf(path)).toBe(section);
  });

  it('accepts four segments of the allowed characters', () => {
    expect(() => checkPagePath('/learn/a.b/c~d/e@f-g_h', 'x.html')).not.toThrow();
  });

  it('fails a fifth segment, naming the page', () => {
    expect(() => checkPagePath('/learn/a/b/c/d', 'learn/a/b/c/d.html')).toThrow(
      /Page \/learn\/a\/b\/c\/d \(learn\/a\/b\/c\/d\.html\) has 5 path segments/,
    );
  });

  it('fails a segment outside the pattern, naming it', () => {
    expect(() => checkPagePath('/docs/hello world', 'docs/hello world.html')).toThrow(
      /segment "hello world" does not match/,
    );
    expect(() => checkPagePath('/docs/caf%C3%A9', 'f')).toThrow(/caf%C3%A9/);
  });
});

describe('head metadata', () => {
  const html =
    '<head><meta name="description" content="Tom &amp; Jerry&#39;s &quot;memory&quot; &#x2192; ok"><meta name="engram:lastmod" content="2026-03-02"></head>';

  it('reads and decodes a meta content attribute', () => {
    expect(metaContent(html, 'description')).toBe('Tom & Jerry\'s "memory" → ok');
    expect(metaContent(html, 'engram:lastmod')).toBe('2026-03-02');
    expect(metaContent(html, 'engram:title')).toBeUndefined();
  });

  it('decodes named and numeric entities only', () => {
    expect(decodeEntities('&lt;a&gt; &#65; &unknown;')).toBe('<a> A &unknown;');
  });
});
