import type { MiddlewareHandler } from 'hono';
import type { MemoryEnv } from '../hono-env.ts';

const INCOMING = /^[A-Za-z0-9._-]{8,128}$/;

/** Gives every memory request an id (a well-formed incoming `x-request-id` is kept). */
export function requestId(): MiddlewareHandler<MemoryEnv> {
  return async function requestIdMiddleware(c, next) {
    const incoming = c.req.header('x-request-id');
    const id = incoming && INCOMING.test(incoming) ? incoming : crypto.randomUUID();
    c.set('requestId', id);
    await next();
    c.res.headers.set('x-request-id', id);
  };
}
