/** The three forms of a 404 (spec section 7): problem+json, short markdown, the HTML page. */
import { errorTypeBase, problemBody, problemResponse } from '../../src/lib/problem.ts';
import type { ErrorSlug } from '../../src/lib/error-catalog.ts';
import { loadSearchIndex, type AssetFetcher } from './agent-data.ts';
import { nearestPages, type PageRef } from './nearest-pages.ts';
import { notFoundMarkdown } from './not-found-markdown.ts';
import { ALLOWED_METHODS, MARKDOWN_TYPE, setCors, varyOnAccept } from './site-headers.ts';

export interface RequestInfoLite {
  url: URL;
  errorTypeBase: string | undefined;
}

/** An RFC 9457 problem for a site `/api` path, pointing at this origin's description. */
export function siteProblem(
  { url, errorTypeBase: configured }: RequestInfoLite,
  slug: ErrorSlug,
  detail: string,
  headers: HeadersInit = {},
): Response {
  const body = problemBody({
    slug,
    detail,
    instance: url.href,
    typeBase: errorTypeBase(configured, url.origin),
    extensions: { documentation_url: `${url.origin}/openapi.json` },
  });
  const res = problemResponse(body, headers);
  setCors(res.headers);
  return res;
}

export function apiNotFound(info: RequestInfoLite): Response {
  return siteProblem(info, 'not-found', `No resource is served at ${info.url.pathname}.`);
}

export function apiMethodNotAllowed(info: RequestInfoLite, method: string): Response {
  return siteProblem(
    info,
    'method-not-allowed',
    `${method} is not accepted at ${info.url.pathname}; this origin is read-only.`,
    { allow: ALLOWED_METHODS },
  );
}

export function markdownNotFound(path: string, nearest: readonly PageRef[] = []): Response {
  const headers = new Headers({ 'content-type': MARKDOWN_TYPE });
  setCors(headers);
  return new Response(notFoundMarkdown(path, nearest), { status: 404, headers });
}

/** The site's pages (from the search index the build wrote) nearest to `path`. */
async function nearestTo(assets: AssetFetcher, path: string): Promise<PageRef[]> {
  const index = await loadSearchIndex(assets);
  const pages = index.docs.map(({ doc }) => ({
    title: doc.title,
    path: new URL(doc.url, 'https://x.invalid').pathname,
  }));
  return nearestPages(path, pages);
}

const escapeHtml = (text: string): string =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

/** Where src/pages/404.astro leaves room for the suggestions. */
export const NEAREST_SLOT = '<div class="nearest-pages" data-nearest-pages></div>';

function nearestHtml(nearest: readonly PageRef[]): string {
  if (nearest.length === 0) return NEAREST_SLOT;
  const items = nearest
    .map(
      (p) =>
        `<li><a href="${escapeHtml(p.path)}">${escapeHtml(p.title)}</a> <code>${escapeHtml(p.path)}</code></li>`,
    )
    .join('');
  return `<div class="nearest-pages"><h2>Were you looking for</h2><ul>${items}</ul></div>`;
}

const FALLBACK_404_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>' +
  '<body><main><h1>Not found</h1><p>Try the <a href="/">homepage</a>.</p></main></body></html>';

/** The site's own 404 page (dist/404.html) with status 404, for a client that wants HTML. */
export async function htmlNotFound(
  assets: AssetFetcher,
  url: URL,
  nearest: readonly PageRef[] = [],
): Promise<Response> {
  // html_handling serves dist/404.html at /404 (the `.html` spelling redirects there).
  const page = await assets.fetch(new Request(new URL('/404', url)));
  const body = page.ok
    ? (await page.text()).replace(NEAREST_SLOT, nearestHtml(nearest))
    : FALLBACK_404_HTML;
  const headers = new Headers({ 'content-type': 'text/html; charset=utf-8' });
  varyOnAccept(headers);
  return new Response(body, { status: 404, headers });
}

/** An unknown page: HTML for browsers, markdown for a client that prefers it. */
export async function pageNotFound(
  assets: AssetFetcher,
  url: URL,
  wantsMarkdown: boolean,
): Promise<Response> {
  const nearest = await nearestTo(assets, url.pathname);
  if (!wantsMarkdown) return htmlNotFound(assets, url, nearest);
  const res = markdownNotFound(url.pathname, nearest);
  varyOnAccept(res.headers);
  return res;
}
