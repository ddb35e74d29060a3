import { decodePathSegment } from './path-encoding.ts';

/** First segments under /api/v1 that are control-plane routes, never Context ids. */
export const CONTROL_PLANE = new Set([
  'contexts',
  'principals',
  'keys',
  'migrations',
  'openapi.json',
]);

/**
 * `/api/v1/<ctx>/<...>` -> ctx: a data-plane request, authenticated and rate-limited by the
 * Context's own object (docs/hot-path.md); null for control-plane paths, which the Worker
 * authenticates against D1. A lone `/api/v1/<x>` is no route of either kind: the Worker answers it.
 */
export function dataPlaneContext(path: string): string | null {
  const parts = path.split('/');
  const first = parts[3];
  if (!first || parts.length < 5 || CONTROL_PLANE.has(first)) return null;
  // wellFormedPath() refused malformed encodings earlier; the raw segment is a safe fallback.
  return decodePathSegment(first) ?? first;
}
