import type { MiddlewareHandler } from 'hono';
import { credentialOf } from '../access/credential.ts';
import { authenticate } from '../auth/authenticate.ts';
import type { MemoryEnv } from '../hono-env.ts';
import { dataPlaneContext } from './data-plane.ts';

/**
 * Control plane: puts the caller's principal and key grant in the context, or throws 401.
 * Data plane (`/api/v1/<ctx>/...`): only the well-formedness of the key is checked here (401
 * without any I/O); the Context's own object checks the key in the call that runs the request.
 */
export function requireAuth(): MiddlewareHandler<MemoryEnv> {
  return async function authMiddleware(c, next) {
    const header = c.req.header('authorization');
    if (dataPlaneContext(c) !== null) c.set('credential', await credentialOf(header));
    else c.set('auth', await authenticate(c.env, header));
    await next();
  };
}
