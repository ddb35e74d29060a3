import type { MiddlewareHandler } from 'hono';
import { MemoryError } from '../errors.ts';
import type { MemoryEnv } from '../hono-env.ts';

export interface RateLimitOptions {
  /** Requests per key and Context per minute; defaults to `env.RATE_LIMIT_PER_MINUTE`. */
  perMinute?: number;
  /** Extracts the Context of a request (null for control-plane routes: one bucket per key). */
  contextOf?: (path: string) => string | null;
  /** Clock in milliseconds (tests pin it so that a window boundary cannot fall mid-test). */
  now?: () => number;
}

const CONTROL_PLANE = new Set(['contexts', 'principals', 'keys', 'migrations', 'openapi.json']);

/** `/api/v1/<ctx>/...` -> ctx; `/api/v1/contexts/<id>` -> id; other control routes -> null. */
export function contextOfPath(path: string): string | null {
  const parts = path.split('/');
  const first = parts[3];
  if (!first) return null;
  if (first === 'contexts') return parts[4] ? decodeURIComponent(parts[4]) : null;
  if (CONTROL_PLANE.has(first)) return null;
  return decodeURIComponent(first);
}

/**
 * Fixed one-minute windows per (key, Context) counted in D1 (`rate_limit_windows`): D1 is the one
 * store shared by every isolate, and one UPSERT ... RETURNING per request is cheap. Runs after auth.
 */
export function rateLimit(options: RateLimitOptions = {}): MiddlewareHandler<MemoryEnv> {
  const contextOf = options.contextOf ?? contextOfPath;
  return async function rateLimitMiddleware(c, next) {
    const configured = options.perMinute ?? Number.parseInt(c.env.RATE_LIMIT_PER_MINUTE ?? '', 10);
    const limit = Number.isFinite(configured) && configured > 0 ? configured : 1200;
    const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
    const window = nowSeconds - (nowSeconds % 60);
    const bucket = `${c.get('auth').key.keyId}|${contextOf(new URL(c.req.url).pathname) ?? '-'}`;
    const row = await c.env.DB.prepare(
      `INSERT INTO rate_limit_windows (bucket, window_start, count) VALUES (?, ?, 1)
       ON CONFLICT (bucket, window_start) DO UPDATE SET count = count + 1
       RETURNING count`,
    )
      .bind(bucket, window)
      .first<{ count: number }>();
    const count = row?.count ?? 1;
    if (count === 1) {
      // First hit of a new window: drop this bucket's old windows so the table stays small.
      await c.env.DB.prepare('DELETE FROM rate_limit_windows WHERE bucket = ? AND window_start < ?')
        .bind(bucket, window)
        .run();
    }
    if (count > limit) {
      const retryAfter = Math.max(1, window + 60 - nowSeconds);
      throw new MemoryError({
        kind: 'rate-limited',
        detail: `rate limit of ${limit} requests per minute for this key and Context reached`,
        retryAfter,
      });
    }
    await next();
  };
}
