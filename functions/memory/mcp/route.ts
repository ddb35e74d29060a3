import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context } from 'hono';
import { errorTypeBase } from '../../../src/lib/problem.ts';
import { handleDocsSearch } from '../../site/search-route.ts';
import { authenticate } from '../auth/authenticate.ts';
import type { AuthContext } from '../auth/principal.ts';
import { MemoryError, problemFor } from '../errors.ts';
import type { MemoryEnv } from '../hono-env.ts';
import { assertGrantLive } from '../oauth/grant-liveness.ts';
import { readCredentialProps } from '../oauth/props.ts';
import { boundByScope } from '../oauth/scopes.ts';
import { createDeps } from '../operations/create-deps.ts';
import { loadTables } from '../tables/load-tables.ts';
import type { RouteModule } from '../routes/registry.ts';
import { ClientState } from './client-state.ts';
import { admitToolCall, configuredPerMinute } from './rate-limit.ts';
import { buildServer } from './server.ts';
import { resolveContextId } from './tool.ts';

function executionProps(c: Context<MemoryEnv>): unknown {
  try {
    return c.executionCtx.props;
  } catch {
    // app.request() in unit tests has no execution context
    return undefined;
  }
}

/** The OAuth `scope` of the access token the provider checked (its `ctx.auth`), if any. */
function tokenScope(c: Context<MemoryEnv>): string[] {
  try {
    const auth: unknown = (c.executionCtx as ExecutionContext & { auth?: unknown }).auth;
    const scope = typeof auth === 'object' && auth !== null && 'scope' in auth ? auth.scope : [];
    return Array.isArray(scope) ? scope.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The caller: the props the OAuth provider resolved (an OAuth token or a bearer key), or, when
 * the app runs without the provider in front, the bearer key checked here. A token's grant is
 * bounded by its scope exactly as on REST (oauth/access-token.ts).
 */
async function callerOf(c: Context<MemoryEnv>): Promise<AuthContext> {
  const props = readCredentialProps(executionProps(c));
  if (props?.source === 'oauth') {
    await assertGrantLive(c.env, props.auth);
    return boundByScope(props.auth, tokenScope(c));
  }
  if (props) return props.auth;
  return authenticate(c.env, c.req.header('authorization'));
}

/** The 401 problem; problemFor adds the `WWW-Authenticate` challenge of every 401. */
function unauthorizedResponse(c: Context<MemoryEnv>, err: MemoryError): Response {
  const url = new URL(c.req.url);
  return problemFor(err.failure, {
    requestId: c.get('requestId') ?? crypto.randomUUID(),
    instance: url.pathname,
    origin: url.origin,
    typeBase: c.env.ERROR_TYPE_BASE,
  });
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
  // MCP tools, resources and prompts run operations in this isolate (embedding a query, counting
  // a context block's tokens): the read-only tables first, once per isolate (docs/self-hosting.md).
  await loadTables(c.env.ASSETS);
  const url = new URL(c.req.url);
  const env = c.env;
  const state = new ClientState(env.OAUTH_KV, auth.key.keyId);
  const call = await peekToolCall(c.req.raw);
  // The level matters only where notifications can flow: on a tool call's own stream.
  const logLevel = call ? await state.logLevel() : null;
  const stream = call !== null && (call.progressToken || logLevel !== null);
  const server = buildServer(
    {
      deps: c.get('deps') ?? createDeps(env),
      auth,
      origin: url.origin,
      state,
      async enter(requested) {
        const contextId = resolveContextId(auth, requested);
        const perMinute = configuredPerMinute(env);
        await admitToolCall(env, auth.key.keyId, contextId, { perMinute });
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
    { logLevel },
  );
  // Stateless: no session id, one server and transport per request. Plain JSON answers, except
  // a tool call that can produce notifications (a progress token, or a log level set): that one
  // is answered as an SSE stream carrying them before its result.
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: !stream,
  });
  await server.connect(transport);
  if (stream) {
    // The stream outlives this function; the transport ends it after the result is sent.
    return transport.handleRequest(c.req.raw);
  }
  try {
    return await transport.handleRequest(c.req.raw);
  } finally {
    await server.close();
  }
}

/** The transport's own cap; a larger body is refused by it before any tool runs. */
const PEEK_LIMIT = 4 * 1024 * 1024;

/**
 * Whether the body is a single `tools/call` request, and whether it asks for progress. Read from
 * a clone, so the transport still parses (and validates) the original itself.
 */
async function peekToolCall(request: Request): Promise<{ progressToken: boolean } | null> {
  const length = Number(request.headers.get('content-length') ?? '0');
  if (request.method !== 'POST' || length > PEEK_LIMIT) return null;
  let body: unknown;
  try {
    const text = await request.clone().text();
    if (text.length > PEEK_LIMIT) return null;
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  if (!('method' in body) || body.method !== 'tools/call' || !('id' in body)) return null;
  const params = 'params' in body ? body.params : undefined;
  const meta =
    typeof params === 'object' && params !== null && '_meta' in params ? params._meta : undefined;
  const token =
    typeof meta === 'object' && meta !== null && 'progressToken' in meta
      ? meta.progressToken
      : undefined;
  return { progressToken: typeof token === 'string' || typeof token === 'number' };
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
    // OPTIONS without an Origin (a client asking what /mcp takes; a browser preflight is
    // answered by the Origin guard's CORS layer around this): the methods, no body.
    app.options('/mcp', (c) => c.body(null, 204, { allow: 'POST, OPTIONS' }));
    // Every other method is a 405 problem from the memory service, never the site's plain 405.
    // `all` after the two above: GET, DELETE, PUT, PATCH, HEAD, TRACE and any other token.
    app.all('/mcp', methodNotAllowed);
  },
};
