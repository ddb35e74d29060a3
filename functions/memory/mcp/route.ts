import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context } from 'hono';
import { errorTypeBase } from '../../../src/lib/problem.ts';
import { handleDocsSearch } from '../../site/search-route.ts';
import { authenticate } from '../auth/authenticate.ts';
import type { AuthContext } from '../auth/principal.ts';
import { MemoryError, problemFor } from '../errors.ts';
import type { MemoryEnv } from '../hono-env.ts';
import { assertGrantLive } from '../oauth/grant-liveness.ts';
import { readMcpProps } from '../oauth/props.ts';
import { createDeps } from '../operations/deps.ts';
import type { RouteModule } from '../routes/registry.ts';
import { admitToolCall, configuredPerMinute } from './rate-limit.ts';
import { buildServer } from './server.ts';
import { resolveContextId } from './tool.ts';

/** RFC 9728 metadata of this origin as a protected resource; every 401 points at it. */
export function resourceMetadataUrl(origin: string): string {
  return `${origin}/.well-known/oauth-protected-resource`;
}

/** `WWW-Authenticate` of a 401 on `/mcp` (MCP authorization spec, RFC 9728 section 5.1). */
export function bearerChallenge(origin: string): string {
  return `Bearer resource_metadata="${resourceMetadataUrl(origin)}"`;
}

function executionProps(c: Context<MemoryEnv>): unknown {
  try {
    return c.executionCtx.props;
  } catch {
    // app.request() in unit tests has no execution context
    return undefined;
  }
}

/**
 * The caller: the props the OAuth provider resolved (an OAuth token or a bearer key), or, when
 * the app runs without the provider in front, the bearer key checked here.
 */
async function callerOf(c: Context<MemoryEnv>): Promise<AuthContext> {
  const props = readMcpProps(executionProps(c));
  if (props?.source === 'oauth') await assertGrantLive(c.env, props.auth);
  if (props) return props.auth;
  return authenticate(c.env, c.req.header('authorization'));
}

function unauthorizedResponse(c: Context<MemoryEnv>, err: MemoryError): Response {
  const url = new URL(c.req.url);
  const res = problemFor(err.failure, {
    requestId: c.get('requestId') ?? crypto.randomUUID(),
    instance: url.pathname,
    origin: url.origin,
    typeBase: c.env.ERROR_TYPE_BASE,
  });
  res.headers.set('www-authenticate', bearerChallenge(url.origin));
  return res;
}

async function handleMcp(c: Context<MemoryEnv>): Promise<Response> {
  let auth: AuthContext;
  try {
    auth = await callerOf(c);
  } catch (err) {
    if (err instanceof MemoryError && err.failure.kind === 'unauthorized') {
      return unauthorizedResponse(c, err);
    }
    throw err;
  }
  const url = new URL(c.req.url);
  const env = c.env;
  const server = buildServer(
    {
      deps: c.get('deps') ?? createDeps(env),
      auth,
      origin: url.origin,
      async enter(requested) {
        const contextId = resolveContextId(auth, requested);
        const perMinute = configuredPerMinute(env);
        await admitToolCall(env.DB, auth.key.keyId, contextId, { perMinute });
        return contextId;
      },
      fetchSite: (request) =>
        handleDocsSearch(
          request,
          { url: new URL(request.url), errorTypeBase: env.ERROR_TYPE_BASE },
          { assets: env.ASSETS, searchOrigin: env.DOCS_SEARCH_ORIGIN, fetcher: (r) => fetch(r) },
        ),
    },
    {
      typeBase: errorTypeBase(env.ERROR_TYPE_BASE, url.origin),
      requestId: c.get('requestId') ?? crypto.randomUUID(),
    },
  );
  // Stateless: no session id, plain JSON answers, one server and transport per request.
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(c.req.raw);
  } finally {
    await server.close();
  }
}

function methodNotAllowed(): never {
  // A stateless server offers no standalone SSE stream (GET) and no session to end (DELETE).
  throw new MemoryError({
    kind: 'method-not-allowed',
    detail: 'this stateless MCP server answers POST only',
    allow: ['POST'],
  });
}

/** `/mcp`: streamable HTTP, a fresh stateless server per request. */
export const mcpRoutes: RouteModule = {
  name: 'mcp',
  register(app) {
    app.post('/mcp', handleMcp);
    app.get('/mcp', methodNotAllowed);
    app.delete('/mcp', methodNotAllowed);
  },
};
