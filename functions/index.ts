import { Hono } from 'hono';
import { memoryApp } from './memory/app.ts';
import { handleQueue } from './memory/jobs/queue.ts';
import { handleScheduled } from './memory/jobs/scheduled.ts';
import { withOAuth } from './memory/oauth/provider.ts';
import { siteApp } from './site/app.ts';

export { ContextLease } from './memory/lease/context-lease.ts';
export { ContextStore } from './memory/store/context-store.ts';

// The memory service owns /api/v1, /mcp, /health and the OAuth endpoints; the site owns the rest.
const app = new Hono<{ Bindings: Env }>();
app.route('/', memoryApp);
app.route('/', siteApp);

export default {
  // OAuth 2.1 for MCP clients (metadata, registration, /authorize, token) in front of everything.
  fetch: withOAuth(async (request, env, ctx) => app.fetch(request, env, ctx)),
  queue: handleQueue,
  scheduled: handleScheduled,
} satisfies ExportedHandler<Env>;
