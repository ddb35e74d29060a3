/** Twins, machine-readable documents and HTML pages, all served from dist/ through ASSETS. */
import { prefersMarkdown } from './accept-negotiation.ts';
import { loadSiteData, type AssetFetcher } from './agent-data.ts';
import { markdownNotFound, pageNotFound } from './not-found.ts';
import {
  discoveryLink,
  documentContentType,
  MARKDOWN_TYPE,
  setCors,
  setTokenHeaders,
  varyOnAccept,
} from './site-headers.ts';
import { isValidTwinPath, twinOf } from './twin-path.ts';
import { isAppPath } from '../../src/lib/app-pages.ts';

/** Served as they are, but with the spec's content type, CORS and a markdown 404. */
export function isDocumentPath(path: string): boolean {
  return (
    /^\/llms[^/]*\.txt$/.test(path) ||
    /^\/sitemap[^/]*\.xml$/.test(path) ||
    path === '/openapi.json' ||
    path.startsWith('/.well-known/')
  );
}

function found(res: Response): boolean {
  return res.status === 200 || res.status === 304;
}

/** Re-wraps an asset response so its headers can change. */
function mutable(res: Response): Response {
  return new Response(res.body, res);
}

/** A twin's bytes as markdown with its token counts: for `/x.md` and for `Accept: text/markdown`. */
async function markdownFrom(asset: Response, twin: string, assets: AssetFetcher) {
  const res = mutable(asset);
  res.headers.set('content-type', MARKDOWN_TYPE);
  setCors(res.headers);
  setTokenHeaders(res.headers, (await loadSiteData(assets)).twins.get(twin));
  return res;
}

export async function handleTwin(request: Request, url: URL, assets: AssetFetcher) {
  const path = url.pathname;
  if (!isValidTwinPath(path)) return markdownNotFound(path);
  const asset = await assets.fetch(request);
  if (!found(asset)) return markdownNotFound(path);
  return markdownFrom(asset, path, assets);
}

export async function handleDocument(request: Request, url: URL, assets: AssetFetcher) {
  const asset = await assets.fetch(request);
  if (!found(asset)) return markdownNotFound(url.pathname);
  const res = mutable(asset);
  const type = documentContentType(url.pathname);
  if (type) res.headers.set('content-type', type);
  setCors(res.headers);
  return res;
}

function isHtml(res: Response): boolean {
  return (res.headers.get('content-type') ?? '').startsWith('text/html');
}

/** An HTML page, its negotiated markdown form, or the negotiated 404. */
export async function handlePage(request: Request, url: URL, assets: AssetFetcher) {
  const wantsMarkdown = prefersMarkdown(request.headers.get('accept'));
  const twin = twinOf(url.pathname);
  if (wantsMarkdown && isValidTwinPath(twin)) {
    const asset = await assets.fetch(new Request(new URL(twin, url), request));
    if (found(asset)) {
      const res = await markdownFrom(asset, twin, assets);
      res.headers.set('link', discoveryLink(twin));
      varyOnAccept(res.headers);
      return res;
    }
  }
  const asset = await assets.fetch(request);
  if (asset.status === 404) return pageNotFound(assets, url, wantsMarkdown);
  const res = mutable(asset);
  if (isHtml(res) || asset.status === 304) {
    varyOnAccept(res.headers);
    if (asset.status === 200)
      res.headers.set('link', discoveryLink(isAppPath(url.pathname) ? null : twin));
  }
  return res;
}
