import type { MiddlewareHandler } from 'hono';
import { credentialOf } from '../access/credential.ts';
import { authenticate } from '../auth/authenticate.ts';
import type { MemoryEnv } from '../hono-env.ts';
import { accessTokenOf, authenticateAccessToken, resourceOf } from '../oauth/access-token.ts';
import { dataPlaneContext } from './data-plane.ts';

/**
 * Control plane: puts the caller's principal and key grant in the context, or throws 401.
 * Data plane (`/api/v1/<ctx>/...`): only the well-formedness of the key is checked here (401
 * without any I/O); the Context's own object checks the key in the call that runs the request.
 * An OAuth access token (told from a key by its shape alone) is resolved here on both planes,
 * to the grant its consent gave (oauth/access-token.ts); the object then takes that grant as it is.
 */
export function requireAuth(): MiddlewareHandler<MemoryEnv> {
  return async function authMiddleware(c, next) {
    const header = c.req.header('authorization');
    const dataPlane = dataPlaneContext(c) !== null;
    const token = accessTokenOf(header);
    if (token !== null) {
      const resource = resourceOf(new URL(c.req.url).origin);
      const auth = await authenticateAccessToken(c.env, token, resource);
      if (dataPlane) c.set('credential', { oauth: auth });
      else c.set('auth', auth);
    } else if (dataPlane) c.set('credential', await credentialOf(header));
    else c.set('auth', await authenticate(c.env, header));
    await next();
  };
}
