import { describe, expect, it } from 'vitest';
import { nearestPages } from './nearest-pages.ts';

const PAGES = [
  { title: 'Quickstart', path: '/docs/quickstart' },
  { title: 'Facts', path: '/docs/api/facts' },
  { title: 'Retrieval modes', path: '/docs/concepts/retrieval-modes' },
  { title: 'Pricing', path: '/pricing' },
  { title: 'Get fact', path: '/docs/reference/memory/get-fact' },
  { title: 'Hybrid search', path: '/learn/memory-basics/retrieval/hybrid-search' },
];
const near = (path: string) => nearestPages(path, PAGES).map((p) => p.path);

describe('nearest pages to a missing path', () => {
  it('finds the page behind a typo', () => {
    expect(near('/docs/quickstrat')[0]).toBe('/docs/quickstart');
    expect(near('/pricng')[0]).toBe('/pricing');
  });

  it('finds a page that lives in another folder', () => {
    expect(near('/docs/facts')[0]).toBe('/docs/api/facts');
    expect(near('/docs/retrieval-modes.md')[0]).toBe('/docs/concepts/retrieval-modes');
  });

  it('suggests nothing for a path that resembles no page', () => {
    expect(near('/zzqx/wvvv')).toEqual([]);
    expect(near('/')).toEqual([]);
  });

  it('returns at most the limit', () => {
    expect(nearestPages('/docs/x', PAGES, 2).length).toBeLessThanOrEqual(2);
  });
});
