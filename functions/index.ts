import { Hono } from 'hono';
import { workerSettings } from './config/worker-settings.ts';
import { handleHealth, misconfiguredResponse } from './health/health.ts';
import { memoryApp } from './memory/app.ts';
import { handleQueue } from './memory/jobs/queue.ts';
import { hasRole } from './memory/jobs/roles.ts';
import { handleScheduled } from './memory/jobs/scheduled.ts';
import { withBenchCalls } from './memory/instrument/bench-calls.ts';
import { instrumentEnv } from './memory/instrument/instrument-bindings.ts';
import { withMcpOriginGuard } from './memory/mcp/origin-guard.ts';
import { withOAuth } from './memory/oauth/provider.ts';
import { siteApp } from './site/app.ts';
import { withSecurityHeaders } from './site/security-headers.ts';
import { problemBody, problemResponse } from '../src/lib/problem.ts';

export { ContextLease } from './memory/lease/context-lease.ts';
export { ContextStore } from './memory/context-object/context-store.ts';

// The memory service owns /api/v1, /mcp and the OAuth endpoints; the site owns the rest.
const app = new Hono<{ Bindings: Env }>();
app.route('/', memoryApp);
app.route('/', siteApp);

// A deployment without the `api` role (ROLES=worker or scheduler) serves only /health over HTTP
// (answered first, below), so a misrouted request cannot reach a Worker that is sized and configured for background jobs.
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
// `instrumentEnv` is the env itself unless a bench or test instruments the bindings.
const serveHttp = withBenchCalls(
  withMcpOriginGuard(
    withOAuth(async (request, env, ctx) => app.fetch(request, instrumentEnv(env), ctx)),
  ),
);

export default {
  // Security headers (nosniff, CSP on pages, HSTS on https) on whatever answers, /health included.
  fetch: withSecurityHeaders(async (request, env, ctx) => {
    // Settings first: a refused configuration answers every request with 503 `misconfigured`.
    const { invalid } = workerSettings(env);
    // /health before everything else (OAuth, routing, load shedding, auth, rate limits), in
    // every role, so that it stays fast under load and reports a refused configuration.
    if (request.method === 'GET' || request.method === 'HEAD') {
      if (new URL(request.url).pathname === '/health') return handleHealth(request, env, invalid);
    }
    if (invalid !== null) return misconfiguredResponse(request, invalid);
    // OAuth 2.1 for MCP clients (metadata, registration, /authorize, token) in front of the rest.
    return hasRole(env, 'api') ? serveHttp(request, env, ctx) : outsideRole(request);
  }),
  queue: async (batch, env) => {
    // Left on the queue (retried later, as for any failure) until the settings are fixed.
    if (workerSettings(env).invalid !== null) throw new Error('refusing jobs: bad settings');
    await handleQueue(batch, env);
  },
  scheduled: async (controller, env) => {
    // A refused configuration does no background work either (the refusal is logged once).
    if (workerSettings(env).invalid !== null) return;
    await handleScheduled(controller, env);
  },
} satisfies ExportedHandler<Env>;
