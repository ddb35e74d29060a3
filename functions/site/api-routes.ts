/** The site's own `/api/*` (everything but `/api/v1`, which the memory service answers first). */
import type { AssetFetcher } from './agent-data.ts';
import { apiNotFound, type RequestInfoLite } from './not-found.ts';
import { handleDocsSearch, type SearchDeps } from './search-route.ts';
import { documentContentType, JSON_TYPE, setCors } from './site-headers.ts';

/** `/api/learn/{course}.json`: one segment, any course name (spec section 1). */
const LEARN_COURSE = /^\/api\/learn\/[^/]+\.json$/;

function learnCourse(): Response {
  const headers = new Headers({ 'content-type': JSON_TYPE });
  setCors(headers);
  return new Response('[]', { headers });
}

/** A prebuilt `/api` file (the pricing catalogue), or a problem+json 404. */
async function apiAsset(request: Request, info: RequestInfoLite, assets: AssetFetcher) {
  const asset = await assets.fetch(request);
  if (asset.status !== 200 && asset.status !== 304) return apiNotFound(info);
  const res = new Response(asset.body, asset);
  const type = documentContentType(info.url.pathname);
  if (type) res.headers.set('content-type', type);
  setCors(res.headers);
  return res;
}

export function handleSiteApi(
  request: Request,
  info: RequestInfoLite,
  deps: SearchDeps,
): Promise<Response> {
  const path = info.url.pathname;
  if (LEARN_COURSE.test(path)) return Promise.resolve(learnCourse());
  if (path === '/api/docs/search') return handleDocsSearch(request, info, deps);
  // Only files with an extension are prebuilt under /api; a bare path would hit html_handling.
  if (/\.[A-Za-z0-9]+$/.test(path)) return apiAsset(request, info, deps.assets);
  return Promise.resolve(apiNotFound(info));
}
