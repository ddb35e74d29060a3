import { describe, expect, it } from 'vitest';
import { handleSiteRequest } from '../../../functions/site/app.ts';
import { NEAREST_SLOT } from '../../../functions/site/not-found.ts';
import { fakeAssets, SITE_FILES } from './fake-assets.ts';

const ORIGIN = 'https://engram.example';
// The built 404 page keeps a slot for the suggestions; the fake one gets it too.
const FILES = {
  ...SITE_FILES,
  '/404.html': `<!doctype html><html><head><title>Page not found</title></head><body><main><h1>Page not found</h1>${NEAREST_SLOT}</main></body></html>`,
};

function send(path: string, accept: string) {
  return handleSiteRequest(new Request(`${ORIGIN}${path}`, { headers: { accept } }), {
    ASSETS: fakeAssets(FILES),
  });
}

describe('the 404 suggests the pages nearest to the missing path', () => {
  it('lists them in the HTML page, in place of the slot', async () => {
    const res = await send('/pricng', 'text/html');
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).not.toContain(NEAREST_SLOT);
    expect(html).toContain('<a href="/pricing">Pricing</a>');
  });

  it('lists them, with their twins and a search link, in the markdown form', async () => {
    const res = await send('/learn/hybrid-serch', 'text/markdown');
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(text).toMatch(/^# Not found\n/);
    expect(text).toContain(
      '- [Hybrid search](/learn/memory-basics/retrieval/hybrid-search.md): /learn/memory-basics/retrieval/hybrid-search',
    );
    expect(text).toContain('Search: [/api/docs/search?q=learn%20hybrid%20serch]');
  });

  it('leaves the slot empty when no page resembles the path', async () => {
    const html = await (await send('/zzqx/wvvv', 'text/html')).text();
    expect(html).toContain(NEAREST_SLOT);
  });
});
