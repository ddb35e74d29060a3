import type { MiddlewareHandler } from 'hono';
import { MemoryError } from '../errors.ts';
import type { MemoryEnv } from '../hono-env.ts';

/**
 * A percent-encoded path segment decoded, or null when its encoding is malformed (a lone `%`,
 * or bytes that are not UTF-8, such as `%ED%A0%80`, a surrogate). The one place the memory
 * service decodes a path: `decodeURIComponent` throws `URIError` on such input.
 */
export function decodePathSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * Refuses a request whose path does not decode, before anything reads it, with a 400 naming the
 * segment: every later step (routing, the rate-limit bucket, a Context id) sees a sound path.
 */
export function wellFormedPath(): MiddlewareHandler<MemoryEnv> {
  return async function wellFormedPathMiddleware(c, next) {
    const raw = new URL(c.req.url).pathname;
    const bad = raw.split('/').find((segment) => decodePathSegment(segment) === null);
    if (bad !== undefined) {
      throw new MemoryError({
        kind: 'validation-error',
        detail: `the request path has malformed percent-encoding in '${bad.slice(0, 64)}': encode it as UTF-8 bytes, each as %XX`,
      });
    }
    await next();
  };
}
