import { describe, expect, inject, it } from 'vitest';
import { siteCsp } from '../../functions/site/security-headers.ts';

// Security headers over real HTTP against `wrangler dev`: Workers Static Assets serves some files
// without the Worker (Astro's bundles under /_astro/), so the workerd tests alone cannot show
// that every response carries them.
const base = inject('baseUrl');

function get(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${base}${path}`, { redirect: 'manual', ...init });
}

describe('security headers under wrangler dev', () => {
  it.each(['/', '/pricing', '/docs', '/no-such-page'])('HTML %s has the page set', async (path) => {
    const res = await get(path, { headers: { accept: 'text/html' } });
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toBe(siteCsp());
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('permissions-policy')).toMatch(/camera=\(\)/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('the pricing calculator is a script file from this origin, not inline', async () => {
    const html = await (await get('/pricing')).text();
    const src = /<script[^>]*\bsrc="(\/_astro\/[^"]+\.js)"/.exec(html)?.[1];
    expect(src).toBeDefined();
    // Served by Static Assets directly (run_worker_first excludes /_astro/*): public/_headers.
    const script = await get(src ?? '');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('the stylesheet bundle is nosniff too', async () => {
    const html = await (await get('/')).text();
    const href = /<link rel="stylesheet" href="(\/_astro\/[^"]+\.css)"/.exec(html)?.[1];
    expect(href).toBeDefined();
    const css = await get(href ?? '');
    expect(css.status).toBe(200);
    expect(css.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it.each(['/api/v1/contexts', '/mcp', '/health', '/llms.txt', '/api/nope'])(
    '%s is nosniff',
    async (path) => {
      const res = await get(path, { method: path === '/mcp' ? 'POST' : 'GET' });
      expect(res.headers.get('x-content-type-options'), `${path} ${res.status}`).toBe('nosniff');
    },
  );
});
