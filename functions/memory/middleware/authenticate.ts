import type { MiddlewareHandler } from 'hono';
import { authenticate } from '../auth/authenticate.ts';
import type { MemoryEnv } from '../hono-env.ts';

/** Puts the caller's principal and key grant in the context, or throws 401. */
export function requireAuth(): MiddlewareHandler<MemoryEnv> {
  return async function authMiddleware(c, next) {
    c.set('auth', await authenticate(c.env, c.req.header('authorization')));
    await next();
  };
}
