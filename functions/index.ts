import { Hono } from 'hono';
import { memoryApp } from './memory/app.ts';
import { handleQueue } from './memory/jobs/queue.ts';
import { hasRole } from './memory/jobs/roles.ts';
import { handleScheduled } from './memory/jobs/scheduled.ts';
import { withMcpOriginGuard } from './memory/mcp/origin-guard.ts';
import { withOAuth } from './memory/oauth/provider.ts';
import { siteApp } from './site/app.ts';
import { withSecurityHeaders } from './site/security-headers.ts';
import { problemBody, problemResponse } from '../src/lib/problem.ts';

export { ContextLease } from './memory/lease/context-lease.ts';
export { ContextStore } from './memory/store/context-store.ts';

// The memory service owns /api/v1, /mcp, /health and the OAuth endpoints; the site owns the rest.
const app = new Hono<{ Bindings: Env }>();
app.route('/', memoryApp);
app.route('/', siteApp);

// A deployment without the `api` role (ROLES=worker or scheduler) serves only /health over HTTP,
// so a misrouted request cannot reach a Worker that is sized and configured for background jobs.
function outsideRole(request: Request): Response {
  const url = new URL(request.url);
  const body = problemBody({
    slug: 'not-found',
    detail:
      'This deployment does not run the api role (see ROLES); send HTTP requests to the api Worker.',
    instance: url.pathname,
    typeBase: `${url.origin}/errors`,
  });
  return problemResponse(body);
}

// `/mcp` checks Origin and Host before the OAuth provider, whose CORS layer echoes any origin.
const serveHttp = withMcpOriginGuard(
  withOAuth(async (request, env, ctx) => app.fetch(request, env, ctx)),
);

export default {
  // OAuth 2.1 for MCP clients (metadata, registration, /authorize, token) in front of everything;
  // security headers (nosniff, CSP on pages, HSTS on https) on whatever answers.
  fetch: withSecurityHeaders(async (request, env, ctx) =>
    hasRole(env, 'api') || new URL(request.url).pathname === '/health'
      ? serveHttp(request, env, ctx)
      : outsideRole(request),
  ),
  queue: handleQueue,
  scheduled: handleScheduled,
} satisfies ExportedHandler<Env>;
