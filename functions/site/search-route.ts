/**
 * `GET /api/docs/search?q=` (left out of openapi.json on purpose, spec section 1): proxied to
 * `DOCS_SEARCH_ORIGIN` when that is set, otherwise answered from the build-time search index.
 */
import { loadSearchIndex, type AssetFetcher } from './agent-data.ts';
import { search } from './docs-search.ts';
import { siteProblem, type RequestInfoLite } from './not-found.ts';
import { JSON_TYPE, setCors } from './site-headers.ts';

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;

export interface SearchDeps {
  assets: AssetFetcher;
  searchOrigin: string | undefined;
  /** Injected so the proxy is testable without a network. */
  fetcher: (request: Request) => Promise<Response>;
}

function parseLimit(raw: string | null): number | null {
  if (raw === null || raw === '') return DEFAULT_LIMIT;
  if (!/^\d+$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 && n <= MAX_LIMIT ? n : null;
}

async function proxy(request: Request, url: URL, origin: string, deps: SearchDeps) {
  const target = new URL(`${url.pathname}${url.search}`, origin);
  const upstream = await deps.fetcher(
    new Request(target, { method: request.method, headers: { accept: JSON_TYPE } }),
  );
  const res = new Response(upstream.body, upstream);
  setCors(res.headers);
  return res;
}

export async function handleDocsSearch(
  request: Request,
  info: RequestInfoLite,
  deps: SearchDeps,
): Promise<Response> {
  const { url } = info;
  // A missing query is refused here in both modes, so clients see one contract.
  const query = url.searchParams.get('q')?.trim() ?? '';
  if (query === '') {
    return siteProblem(
      info,
      'validation-error',
      'The query parameter `q` is required and must not be empty, e.g. /api/docs/search?q=hybrid+search.',
    );
  }
  const origin = deps.searchOrigin?.trim();
  if (origin) {
    try {
      return await proxy(request, url, origin, deps);
    } catch {
      return siteProblem(
        info,
        'service-unavailable',
        'The documentation search service did not answer.',
        {
          'retry-after': '5',
        },
      );
    }
  }
  const limit = parseLimit(url.searchParams.get('limit'));
  if (limit === null) {
    return siteProblem(
      info,
      'validation-error',
      `The query parameter \`limit\` must be an integer from 1 to ${MAX_LIMIT}.`,
    );
  }
  // `from`: the path the reader searches from (the site's dialog sends it); in /docs the docs
  // rank before Learn and blog pages. Agents that leave it out get the plain ranking.
  const from = url.searchParams.get('from') ?? undefined;
  const results = search(await loadSearchIndex(deps.assets), query, limit, { from });
  const headers = new Headers({ 'content-type': JSON_TYPE });
  setCors(headers);
  return new Response(JSON.stringify({ query, results }), { headers });
}
