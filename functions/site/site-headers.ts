/** Response headers the site edge adds: content types, discovery `Link`, CORS, token counts. */
import type { PageEntry } from '../../src/lib/agent-manifest.ts';

export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';
export const JSON_TYPE = 'application/json';
export const ALLOWED_METHODS = 'GET, HEAD';

/**
 * The discovery `Link` header of an HTML page (and of its negotiated markdown form); `twin` is
 * null for an application page, which has none (src/lib/app-pages.ts).
 */
export function discoveryLink(twin: string | null): string {
  return [
    '</openapi.json>; rel="service-desc"',
    '</.well-known/api-catalog>; rel="api-catalog"',
    '</llms.txt>; rel="describedby"',
    ...(twin === null ? [] : [`<${twin}>; rel="alternate"; type="text/markdown"`]),
  ].join(', ');
}

/**
 * The content type a machine-readable path must be served with, or null when the asset's own
 * type is right (HTML pages, images). Assets get generic types from their extension; these are
 * the ones the spec names.
 */
export function documentContentType(path: string): string | null {
  if (/^\/llms[^/]*\.txt$/.test(path)) return 'text/plain; charset=utf-8';
  if (/^\/sitemap[^/]*\.xml$/.test(path)) return 'application/xml';
  if (path === '/.well-known/api-catalog') return 'application/linkset+json';
  if (path.endsWith('.md')) return MARKDOWN_TYPE;
  if (path.endsWith('.json')) return JSON_TYPE;
  return null;
}

/** Paths read by agents from other origins: twins, indexes, well-known documents, the APIs. */
export function isCorsPath(path: string): boolean {
  return (
    path.endsWith('.md') ||
    /^\/llms[^/]*\.txt$/.test(path) ||
    /^\/sitemap[^/]*\.xml$/.test(path) ||
    path === '/openapi.json' ||
    path === '/robots.txt' ||
    path.startsWith('/.well-known/') ||
    path.startsWith('/api/')
  );
}

export function setCors(headers: Headers): void {
  headers.set('access-control-allow-origin', '*');
  headers.set('access-control-expose-headers', 'x-markdown-tokens, x-original-tokens, link');
}

export function preflightResponse(requestedHeaders: string | null): Response {
  const headers = new Headers({
    'access-control-allow-origin': '*',
    'access-control-allow-methods': `${ALLOWED_METHODS}, OPTIONS`,
    'access-control-max-age': '86400',
    allow: `${ALLOWED_METHODS}, OPTIONS`,
  });
  if (requestedHeaders) headers.set('access-control-allow-headers', requestedHeaders);
  return new Response(null, { status: 204, headers });
}

export function setTokenHeaders(headers: Headers, entry: PageEntry | undefined): void {
  if (!entry) return;
  headers.set('x-markdown-tokens', String(entry.markdownTokens));
  headers.set('x-original-tokens', String(entry.originalTokens));
}

/** Appends `Accept` to `Vary` without dropping what the asset layer put there. */
export function varyOnAccept(headers: Headers): void {
  const current = headers.get('vary');
  if (!current) headers.set('vary', 'Accept');
  else if (!/(^|,)\s*accept\s*(,|$)/i.test(current)) headers.set('vary', `${current}, Accept`);
}
