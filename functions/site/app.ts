/**
 * The site edge: every request the memory service does not answer. One explicit dispatcher so the
 * order of the rules (method, encoded slash, `/api`, private prefix, twins, documents, pages) reads
 * top to bottom. See docs/site-edge.md.
 */
import { Hono } from 'hono';
import { AGENT_PREFIX } from '../../src/lib/agent-manifest.ts';
import { prefersMarkdown } from './accept-negotiation.ts';
import type { AssetFetcher } from './agent-data.ts';
import { handleSiteApi } from './api-routes.ts';
import {
  apiMethodNotAllowed,
  apiNotFound,
  markdownNotFound,
  pageNotFound,
  type RequestInfoLite,
} from './not-found.ts';
import { handleDocument, handlePage, handleTwin, isDocumentPath } from './page-routes.ts';
import { ALLOWED_METHODS, isCorsPath, preflightResponse } from './site-headers.ts';
import { hasEncodedSlash } from './twin-path.ts';

/** The bindings the site edge reads (a subset of `Env`, so tests can pass fakes). */
export interface SiteEnv {
  ASSETS: AssetFetcher;
  ERROR_TYPE_BASE?: string;
  DOCS_SEARCH_ORIGIN?: string;
}

function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

function methodNotAllowed(): Response {
  return new Response('Method not allowed: this site is read-only.\n', {
    status: 405,
    headers: { allow: ALLOWED_METHODS, 'content-type': 'text/plain; charset=utf-8' },
  });
}

export async function handleSiteRequest(
  request: Request,
  env: SiteEnv,
  fetcher: (request: Request) => Promise<Response> = (r) => fetch(r),
): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname;
  const info: RequestInfoLite = { url, errorTypeBase: env.ERROR_TYPE_BASE };
  const assets = env.ASSETS;
  const api = isApiPath(path);

  if (request.method === 'OPTIONS' && (api || isCorsPath(path))) {
    return preflightResponse(request.headers.get('access-control-request-headers'));
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return api ? apiMethodNotAllowed(info, request.method) : methodNotAllowed();
  }
  const wantsMarkdown = prefersMarkdown(request.headers.get('accept'));
  if (hasEncodedSlash(path)) {
    if (api) return apiNotFound(info);
    if (path.endsWith('.md') || isDocumentPath(path)) return markdownNotFound(path);
    return pageNotFound(assets, url, wantsMarkdown);
  }
  if (api) {
    return handleSiteApi(request, info, {
      assets,
      searchOrigin: env.DOCS_SEARCH_ORIGIN,
      fetcher,
    });
  }
  // The build's private files (manifest, search index) are for this Worker only.
  // The 404 page is served for unknown pages only, never as a page of its own with status 200.
  if (path === AGENT_PREFIX.slice(0, -1) || path.startsWith(AGENT_PREFIX) || path === '/404') {
    return pageNotFound(assets, url, wantsMarkdown);
  }
  if (isDocumentPath(path)) return handleDocument(request, url, assets);
  if (path.endsWith('.md')) return handleTwin(request, url, assets);
  return handlePage(request, url, assets);
}

export const siteApp = new Hono<{ Bindings: Env }>();

siteApp.all('*', (c) => handleSiteRequest(c.req.raw, c.env));
