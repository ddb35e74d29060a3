import {
  getOAuthApi,
  OAuthProvider,
  type OAuthProviderOptions,
} from '@cloudflare/workers-oauth-provider';
import { errorTypeBase, problemBody, problemResponse } from '../../../src/lib/problem.ts';
import { authenticate } from '../auth/authenticate.ts';
import { VERBS } from '../auth/principal.ts';
import { bearerChallenge } from '../errors.ts';
import { accessTokenOf, oauthHelpersOf, resourceOf, withOAuthHelpers } from './access-token.ts';
import { handleAuthorize } from './authorize.ts';
import type { CredentialProps } from './props.ts';
import { guardTokenRequest } from './refresh-guard.ts';
import { guardRegistration } from './registration-guard.ts';
import { ACCESS_TOKEN_TTL_SECONDS, refreshTokenTtlSeconds } from './settings.ts';
import { oauthError } from './throttle.ts';

/** OAuth endpoints of this origin (the metadata documents are served by the provider itself). */
export const OAUTH_PATHS = {
  authorize: '/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
} as const;

export const MCP_PATH = '/mcp';
/** The REST API: served by the app, which takes API keys and this origin's access tokens. */
const REST_PREFIX = '/api/v1/';

type FetchHandler = (request: Request, env: Env, ctx: ExecutionContext) => Promise<Response>;

function problem401(
  request: Request,
  typeBase: string | undefined,
  detail: string,
  oauth: OAuthErrorBody | null = null,
): Response {
  const url = new URL(request.url);
  const body = problemBody({
    slug: 'unauthorized',
    detail,
    instance: url.pathname,
    typeBase: errorTypeBase(typeBase, url.origin),
    ...(oauth ? { extensions: { error: oauth.error } } : {}),
  });
  return problemResponse(body, { 'www-authenticate': bearerChallenge(url.origin) });
}

interface OAuthErrorBody {
  error: string;
  description: string | undefined;
}

/** The `error` and `error_description` of an OAuth error response, or null for any other body. */
async function oauthErrorOf(res: Response): Promise<OAuthErrorBody | null> {
  try {
    const parsed: unknown = await res.json();
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { error, error_description: description } = parsed as Record<string, unknown>;
    if (typeof error !== 'string') return null;
    return { error, description: typeof description === 'string' ? description : undefined };
  } catch {
    return null;
  }
}

function providerOptions(
  origin: string,
  app: FetchHandler,
  refreshTokenTTL: number,
): OAuthProviderOptions<Env> {
  const resource = resourceOf(origin);
  return {
    apiRoute: MCP_PATH,
    // `/mcp` is served by the memory app, which reads the resolved credential from ctx.props.
    apiHandler: { fetch: (request, env, ctx) => app(request, env, ctx) },
    defaultHandler: {
      fetch: (request, env, ctx) => {
        // The provider puts its helpers on env before it calls the default handler.
        const helpers = oauthHelpersOf(env);
        if (new URL(request.url).pathname === OAUTH_PATHS.authorize && helpers) {
          return handleAuthorize(request, env, helpers);
        }
        return app(request, env, ctx);
      },
    },
    authorizeEndpoint: OAUTH_PATHS.authorize,
    tokenEndpoint: OAUTH_PATHS.token,
    clientRegistrationEndpoint: OAUTH_PATHS.register,
    scopesSupported: [...VERBS],
    // Short access tokens; refresh tokens expire too (RFC 9700 §4.14.2, docs/security.md).
    accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTTL,
    resourceMetadata: {
      resource,
      resource_name: 'Engram memory service (MCP)',
      scopes_supported: [...VERBS],
      bearer_methods_supported: ['header'],
    },
    // Plain `mem_` keys work on /mcp exactly as on REST: same auth module, resolved per request.
    async resolveExternalToken({ token, env }) {
      try {
        const auth = await authenticate(env, `Bearer ${token}`);
        const props: CredentialProps = { source: 'key', auth };
        return { props, audience: resource };
      } catch {
        return null;
      }
    },
  };
}

interface ProviderEntry {
  provider: OAuthProvider<Env>;
  options: OAuthProviderOptions<Env>;
  refreshTokenTTL: number;
}

// Keyed by origin; the configuration is the same for every request of an origin.
const providers = new Map<string, ProviderEntry>();

function providerFor(origin: string, app: FetchHandler, env: Env): ProviderEntry {
  const known = providers.get(origin);
  if (known) return known;
  const refreshTokenTTL = refreshTokenTtlSeconds(env);
  const options = providerOptions(origin, app, refreshTokenTTL);
  const entry = { provider: new OAuthProvider<Env>(options), options, refreshTokenTTL };
  providers.set(origin, entry);
  return entry;
}

/**
 * The hardening the library does not do itself (docs/security.md, OAuth): bounded and
 * throttled registration, unknown scopes refused, refresh-token reuse revoking the grant.
 */
async function guarded(
  entry: ProviderEntry,
  request: Request,
  env: Env,
  ctx: ExecutionContext,
): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (request.method === 'POST' && pathname === OAUTH_PATHS.register) {
    const checked = await guardRegistration(request, env);
    if (checked instanceof Response) return checked;
    return entry.provider.fetch(checked, env, ctx);
  }
  if (request.method === 'POST' && pathname === OAUTH_PATHS.token) {
    const helpers = getOAuthApi(entry.options, env);
    return guardTokenRequest(request, env, helpers, entry.refreshTokenTTL, (r) =>
      entry.provider.fetch(r, env, ctx),
    );
  }
  return entry.provider.fetch(request, env, ctx);
}

/**
 * A REST request whose bearer is an OAuth access token reaches the app with the provider's
 * helpers on its env, for the auth middleware to resolve the token (oauth/access-token.ts) and
 * refuse it with the API's own 401. A request with a `mem_` key, or none, passes untouched.
 */
function serveRest(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  url: URL,
  app: FetchHandler,
): Promise<Response> {
  const bearer = accessTokenOf(request.headers.get('authorization'));
  if (bearer === null || !oauthCapable(url)) return app(request, env, ctx);
  let entry: ProviderEntry;
  try {
    entry = providerFor(url.origin, app, env);
  } catch (err) {
    // A misconfigured token lifetime: said as on the OAuth paths, not passed off as a bad token.
    return Promise.resolve(
      oauthError(500, 'server_error', err instanceof Error ? err.message : String(err)),
    );
  }
  return app(request, withOAuthHelpers(env, getOAuthApi(entry.options, env)), ctx);
}

/**
 * Wraps the Worker's fetch with the OAuth 2.1 provider (metadata, registration, authorize,
 * token) and its `/mcp` credential check, and hands REST requests carrying an access token the
 * provider's helpers. One provider per origin, because its resource and issuer are absolute URLs
 * and the same code serves 127.0.0.1 and the public host.
 */
export function withOAuth(app: FetchHandler): FetchHandler {
  return async (request, env, ctx) => {
    const url = new URL(request.url);
    if (url.pathname.startsWith(REST_PREFIX)) return serveRest(request, env, ctx, url, app);
    if (!isOAuthPath(url.pathname)) return app(request, env, ctx);
    const missing = 'missing Authorization: Bearer <key or OAuth access token>';
    // OAuth 2.1 needs HTTPS (http only on loopback); elsewhere /mcp still takes bearer keys.
    if (!oauthCapable(url)) {
      const bare = url.pathname === MCP_PATH && !request.headers.has('authorization');
      if (bare && request.method !== 'OPTIONS')
        return problem401(request, env.ERROR_TYPE_BASE, missing);
      return app(request, env, ctx);
    }
    let entry: ProviderEntry;
    try {
      entry = providerFor(url.origin, app, env);
    } catch (err) {
      // A misconfigured token lifetime: say so rather than issue tokens that never expire.
      return oauthError(500, 'server_error', err instanceof Error ? err.message : String(err));
    }
    const res = await guarded(entry, request, env, ctx);
    if (url.pathname !== MCP_PATH || res.status !== 401) return res;
    // Every 401 on /mcp is shaped here, and only here: the provider answers without a token
    // with an empty 401 and with a token it cannot resolve with its own OAuth JSON
    // (`{"error":"invalid_token",...}`; not every such answer passes its `onError` hook). Its
    // challenge and CORS headers are right; the body becomes the service's problem document,
    // keeping the OAuth `error` member for clients that read it (RFC 9457 extension member).
    // The OAuth endpoints keep the OAuth error format their clients expect.
    const type = res.headers.get('content-type') ?? '';
    if (type.startsWith('application/problem+json')) return res;
    const oauth = type.startsWith('application/json') ? await oauthErrorOf(res) : null;
    const body = problem401(request, env.ERROR_TYPE_BASE, oauth?.description ?? missing, oauth);
    res.headers.forEach((value, name) => body.headers.set(name, value));
    body.headers.set('content-type', 'application/problem+json');
    body.headers.delete('content-length');
    return body;
  };
}

/** Paths the provider answers or guards; everything else goes straight to the app. */
function isOAuthPath(pathname: string): boolean {
  return (
    pathname === MCP_PATH ||
    pathname === OAUTH_PATHS.authorize ||
    pathname.startsWith('/oauth/') ||
    pathname.startsWith('/.well-known/oauth-')
  );
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

function oauthCapable(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname));
}
