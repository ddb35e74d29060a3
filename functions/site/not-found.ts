/** The three forms of a 404 (spec section 7): problem+json, short markdown, the HTML page. */
import { errorTypeBase, problemBody, problemResponse } from '../../src/lib/problem.ts';
import type { ErrorSlug } from '../../src/lib/error-catalog.ts';
import type { AssetFetcher } from './agent-data.ts';
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

export function markdownNotFound(path: string): Response {
  const headers = new Headers({ 'content-type': MARKDOWN_TYPE });
  setCors(headers);
  return new Response(notFoundMarkdown(path), { status: 404, headers });
}

const FALLBACK_404_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>' +
  '<body><main><h1>Not found</h1><p>Try the <a href="/">homepage</a>.</p></main></body></html>';

/** The site's own 404 page (dist/404.html) with status 404, for a client that wants HTML. */
export async function htmlNotFound(assets: AssetFetcher, url: URL): Promise<Response> {
  // html_handling serves dist/404.html at /404 (the `.html` spelling redirects there).
  const page = await assets.fetch(new Request(new URL('/404', url)));
  const body = page.ok ? await page.text() : FALLBACK_404_HTML;
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
  if (!wantsMarkdown) return htmlNotFound(assets, url);
  const res = markdownNotFound(url.pathname);
  varyOnAccept(res.headers);
  return res;
}
