import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';
import { decodePathSegment } from './path-encoding.ts';

/** The path prefix of every data-plane route: `/api/v1/{context_id}/...` as Hono writes it. */
const DATA_PLANE_ROUTE = '/api/v1/:context_id/';
/** `app.use` registers middleware under this method; routes carry their own. */
const MIDDLEWARE_METHOD = 'ALL';

/**
 * `/api/v1/<ctx>/...` -> ctx when the route that will answer the request is a data-plane route,
 * authenticated and rate-limited by the Context's own object (docs/hot-path.md); null when it is
 * a control-plane route (the Worker authenticates it against D1) or no route at all. Decided by
 * the route the router matched, not by a list of path words: `GET /api/v1/keys/facts/x` matches
 * the data-plane `/api/v1/{context_id}/facts/{id}`, so it is a data-plane request for a Context
 * named "keys" (which cannot exist: reservedContextIds), never a handler without its credential.
 */
export function dataPlaneContext(c: Context): string | null {
  const handler = matchedRoutes(c).find((route) => route.method !== MIDDLEWARE_METHOD);
  if (handler === undefined || !handler.path.startsWith(DATA_PLANE_ROUTE)) return null;
  const first = c.req.path.split('/')[3];
  if (first === undefined || first === '') return null;
  // wellFormedPath() refused malformed encodings earlier; the raw segment is a safe fallback.
  return decodePathSegment(first) ?? first;
}

/** Per route table (`app.routes`, which grows in place as routes register): its reserved ids. */
const reservedCache = new WeakMap<
  readonly { path: string }[],
  { routeCount: number; ids: ReadonlySet<string> }
>();

/**
 * The first path segments under /api/v1 that some registered route spells literally
 * (`contexts`, `keys`, `openapi.json`, ...), lower-cased: a Context with one of these ids would
 * share its paths with a control-plane route. Derived from the app's own routes so that a route
 * added later reserves its word without anyone editing a list.
 */
export function reservedContextIds(routes: readonly { path: string }[]): ReadonlySet<string> {
  const cached = reservedCache.get(routes);
  if (cached !== undefined && cached.routeCount === routes.length) return cached.ids;
  const reserved = new Set<string>();
  for (const { path } of routes) {
    const first = path.split('/')[3];
    if (!path.startsWith('/api/v1/') || first === undefined) continue;
    // `:context_id` (a parameter) and `*` (middleware) are not literal segments.
    if (first === '' || first.startsWith(':') || first.includes('*')) continue;
    reserved.add(first.toLowerCase());
  }
  reservedCache.set(routes, { routeCount: routes.length, ids: reserved });
  return reserved;
}
