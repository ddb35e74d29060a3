import type { MiddlewareHandler } from 'hono';
import type { MemoryEnv } from '../hono-env.ts';
import { configuredPerMinute, countInWindow } from '../limits/rate-window.ts';
import { dataPlaneContext } from './data-plane.ts';
import { decodePathSegment } from './path-encoding.ts';

export interface RateLimitOptions {
  /** Requests per key and Context per minute; defaults to `env.RATE_LIMIT_PER_MINUTE`. */
  perMinute?: number;
  /** Extracts the Context of a request (null for control-plane routes: one bucket per key). */
  contextOf?: (path: string) => string | null;
  /** Clock in milliseconds (tests pin it so that a window boundary cannot fall mid-test). */
  now?: () => number;
}

/**
 * The Context a control-plane request is about, for its bucket: `/api/v1/contexts/<id>` -> id;
 * other control routes -> null. (Data-plane requests are counted by their Context's object.)
 */
export function contextOfPath(path: string): string | null {
  const parts = path.split('/');
  // wellFormedPath() refused malformed encodings earlier; the raw segment is a safe fallback.
  if (parts[3] === 'contexts' && parts[4]) return decodePathSegment(parts[4]) ?? parts[4];
  return null;
}

/**
 * Fixed one-minute windows per (key, Context). A data-plane request is counted by the Context's
 * own object in the same call that runs it (context-object/context-store.ts): here it only
 * records the limit and the clock for that call. Control-plane requests count in D1
 * (limits/rate-window.ts). Runs after auth.
 */
export function rateLimit(options: RateLimitOptions = {}): MiddlewareHandler<MemoryEnv> {
  const contextOf = options.contextOf ?? contextOfPath;
  return async function rateLimitMiddleware(c, next) {
    const limit =
      options.perMinute !== undefined && options.perMinute > 0
        ? options.perMinute
        : configuredPerMinute(c.env);
    const nowMs = (options.now ?? Date.now)();
    if (dataPlaneContext(c) !== null) {
      c.set('rate', { perMinute: limit, nowMs });
      return next();
    }
    const bucket = `${c.get('auth').key.keyId}|${contextOf(new URL(c.req.url).pathname) ?? '-'}`;
    await countInWindow(c.env.DB, bucket, limit, nowMs);
    await next();
  };
}
