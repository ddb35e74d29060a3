import type { MiddlewareHandler } from 'hono';
import { MemoryError } from '../errors.ts';
import type { MemoryEnv } from '../hono-env.ts';

export interface LoadShedOptions {
  /** Cap on concurrent requests in this isolate; defaults to `env.MAX_IN_FLIGHT`. */
  maxInFlight?: number;
  /** Advertised `Retry-After` delta-seconds. */
  retryAfterSeconds?: number;
}

/**
 * Sheds new work above an in-flight cap per isolate instead of queueing it: 503 with
 * `Retry-After`. Mounted only on the API paths, so `/health` is never shed.
 */
export function loadShed(options: LoadShedOptions = {}): MiddlewareHandler<MemoryEnv> {
  let inFlight = 0;
  const retryAfter = options.retryAfterSeconds ?? 1;
  return async function loadShedMiddleware(c, next) {
    const configured = options.maxInFlight ?? Number.parseInt(c.env.MAX_IN_FLIGHT ?? '', 10);
    const cap = Number.isFinite(configured) && configured > 0 ? configured : 256;
    if (inFlight >= cap) {
      throw new MemoryError({
        kind: 'service-unavailable',
        detail: `this server is above its in-flight cap (${cap}); retry after ${retryAfter} s`,
        retryAfter,
      });
    }
    inFlight++;
    try {
      await next();
    } finally {
      inFlight--;
    }
  };
}
