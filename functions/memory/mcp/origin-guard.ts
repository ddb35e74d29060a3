import { MCP_PATH } from '../oauth/provider.ts';

/**
 * DNS-rebinding and cross-origin protection for `/mcp` (MCP transport security: servers MUST
 * validate `Origin`). It runs in front of the OAuth provider, whose CORS layer would otherwise
 * echo any `Origin` back, so a refused request never gets an `Access-Control-Allow-Origin`.
 *
 * Allowed:
 *  - no `Origin` at all (non-browser clients: SDKs, CLIs, agents);
 *  - the service's own origin: `SITE_URL`, or an origin whose host equals the validated `Host`;
 *  - the origins listed in `MCP_ALLOWED_ORIGINS` (comma-separated);
 *  - loopback origins, only when the service itself is reached on loopback (local development).
 * `Host` must be the host of `SITE_URL`, of an allowed origin, or a loopback name; a request
 * without `Host` (a service binding or an in-process test) has nothing a browser could forge.
 */

const LOOPBACK_HOST = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(:\d{1,5})?$/i;

export interface OriginPolicy {
  /** `SITE_URL`, the public origin the site was built for. */
  siteUrl: string | undefined;
  /** `MCP_ALLOWED_ORIGINS`: extra browser origins (e.g. a hosted agent UI). */
  allowedOrigins: string | undefined;
}

function originOf(value: string): string | null {
  try {
    const url = new URL(value.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin;
  } catch {
    return null;
  }
}

/** The exact origins the policy names (own site plus the configured list). */
export function configuredOrigins(policy: OriginPolicy): Set<string> {
  const out = new Set<string>();
  for (const raw of [policy.siteUrl ?? '', ...(policy.allowedOrigins ?? '').split(',')]) {
    if (raw.trim() === '') continue;
    const origin = originOf(raw);
    if (origin !== null) out.add(origin);
  }
  return out;
}

export type OriginVerdict = { ok: true; corsOrigin: string | null } | { ok: false; reason: string };

/** Decides whether a request to `/mcp` may proceed, and which origin CORS may name. */
export function checkOrigin(request: Request, policy: OriginPolicy): OriginVerdict {
  const known = configuredOrigins(policy);
  const header = request.headers.get('host');
  const knownHosts = new Set([...known].map((o) => new URL(o).host.toLowerCase()));
  if (header !== null && !LOOPBACK_HOST.test(header) && !knownHosts.has(header.toLowerCase())) {
    return { ok: false, reason: `Host ${header} is not this service` };
  }
  // Without a Host header the caller is in-process (service binding, test): its URL is the host.
  const host = header ?? new URL(request.url).host;
  const hostIsLoopback = LOOPBACK_HOST.test(host);
  const sent = request.headers.get('origin');
  if (sent === null) return { ok: true, corsOrigin: null };
  const origin = originOf(sent);
  if (origin === null) return { ok: false, reason: `Origin ${sent} is not allowed` };
  const originHost = new URL(origin).host.toLowerCase();
  const allowed =
    known.has(origin) ||
    originHost === host.toLowerCase() ||
    (hostIsLoopback && LOOPBACK_HOST.test(originHost));
  return allowed
    ? { ok: true, corsOrigin: origin }
    : { ok: false, reason: `Origin ${origin} is not allowed` };
}

/** 403 with a JSON-RPC error body (what an MCP client parses), without any CORS header. */
export function forbiddenOrigin(reason: string): Response {
  return new Response(
    JSON.stringify({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: `Forbidden: ${reason}` },
    }),
    { status: 403, headers: { 'content-type': 'application/json', vary: 'Origin' } },
  );
}

type FetchHandler = (request: Request, env: Env, ctx: ExecutionContext) => Promise<Response>;

/**
 * Wraps the Worker's fetch: `/mcp` requests pass the origin check first; allowed browser
 * origins get CORS headers naming exactly that origin (never a refused one).
 */
export function withMcpOriginGuard(next: FetchHandler): FetchHandler {
  return async (request, env, ctx) => {
    const url = new URL(request.url);
    if (url.pathname !== MCP_PATH && !url.pathname.startsWith(`${MCP_PATH}/`)) {
      return next(request, env, ctx);
    }
    const verdict = checkOrigin(request, {
      siteUrl: env.SITE_URL,
      allowedOrigins: env.MCP_ALLOWED_ORIGINS,
    });
    if (!verdict.ok) return forbiddenOrigin(verdict.reason);
    const res = await next(request, env, ctx);
    if (verdict.corsOrigin === null) return res;
    const out = new Response(res.body, res);
    out.headers.set('access-control-allow-origin', verdict.corsOrigin);
    out.headers.set(
      'access-control-expose-headers',
      'WWW-Authenticate, Retry-After, mcp-session-id',
    );
    const vary = out.headers.get('vary');
    if (!vary?.toLowerCase().includes('origin')) {
      out.headers.set('vary', vary ? `${vary}, Origin` : 'Origin');
    }
    if (request.method === 'OPTIONS') {
      out.headers.set('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS');
      out.headers.set(
        'access-control-allow-headers',
        'Authorization, Content-Type, mcp-session-id, mcp-protocol-version, Last-Event-ID',
      );
    }
    return out;
  };
}
