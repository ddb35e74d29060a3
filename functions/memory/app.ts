import { OpenAPIHono } from '@hono/zod-openapi';
import { workerSettings } from '../config/worker-settings.ts';
import { handleHealth } from '../health/health.ts';
import { handleError } from './handle-error.ts';
import type { MemoryApp, MemoryEnv } from './hono-env.ts';
import { requireAuth } from './middleware/authenticate.ts';
import { memoryCors } from './middleware/cors.ts';
import { jsonBodyLimit } from './middleware/json-body-limit.ts';
import { loadShed, type LoadShedOptions } from './middleware/load-shed.ts';
import { rateLimit, type RateLimitOptions } from './middleware/rate-limit.ts';
import { requestId } from './middleware/request-id.ts';
import { wellFormedPath } from './middleware/path-encoding.ts';
import { wellFormedJson } from './middleware/well-formed-json.ts';
import { createDeps } from './operations/create-deps.ts';
import type { OperationDeps } from './operations/deps.ts';
import { closeRequestBodies } from './routes/closed-request-bodies.ts';
import { ROUTE_MODULES } from './routes/index.ts';
import { validationFailure } from './routes/validation-failure.ts';
import type { RouteModule } from './routes/registry.ts';

export interface MemoryAppOptions {
  loadShed?: LoadShedOptions;
  rateLimit?: RateLimitOptions;
  /** Builds the operations' dependencies per request (tests inject fakes here). */
  deps?: (env: Env) => OperationDeps;
  routes?: readonly RouteModule[];
}

/** Paths the memory service answers; middleware is mounted on these only (the site owns the rest). */
const API = '/api/v1/*';
const MCP = ['/mcp', '/mcp/*'];
/** Public (unauthenticated) API documents. */
const PUBLIC_API_PATHS = new Set(['/api/v1/openapi.json']);

/**
 * The memory service: /api/v1 (REST), /health, and whatever the registered route groups add
 * (documents, migrations, model-backed routes, MCP, OAuth).
 */
export function createMemoryApp(options: MemoryAppOptions = {}): MemoryApp {
  const app = new OpenAPIHono<MemoryEnv>({
    // zod failures become the one validation problem; the handler never runs.
    defaultHook: (result) => {
      if (!result.success) throw validationFailure(result.error.issues);
    },
  });
  const buildDeps = options.deps ?? ((env: Env) => createDeps(env));

  for (const path of [API, ...MCP]) {
    app.use(path, requestId());
    app.use(path, wellFormedPath());
    app.use(path, async function depsMiddleware(c, next) {
      c.set('deps', buildDeps(c.env));
      await next();
    });
  }
  app.use(API, memoryCors());
  // Before shedding, auth and the rate-limit write: an oversized body costs one header read.
  app.use(API, jsonBodyLimit());
  for (const path of [API, ...MCP]) app.use(path, loadShed(options.loadShed));
  const auth = requireAuth();
  const limit = rateLimit(options.rateLimit);
  app.use(API, async function apiAuth(c, next) {
    if (PUBLIC_API_PATHS.has(c.req.path) || c.req.method === 'OPTIONS') return next();
    return auth(c, next);
  });
  app.use(API, async function apiRateLimit(c, next) {
    if (PUBLIC_API_PATHS.has(c.req.path) || c.req.method === 'OPTIONS') return next();
    return limit(c, next);
  });
  // After auth and rate limit, so an anonymous flood costs no parsing; before every handler.
  for (const path of [API, ...MCP]) app.use(path, wellFormedJson());

  // The Worker entry answers /health before this app runs; this route serves apps built for
  // tests. Either way it is mounted ahead of no middleware: never shed, never rate limited.
  app.get('/health', (c) => handleHealth(c.req.raw, c.env, workerSettings(c.env).invalid));
  for (const module of options.routes ?? ROUTE_MODULES) module.register(app);

  // Generated from the route schemas; request bodies are closed (unknown fields are a 400).
  app.get('/api/v1/openapi.json', (c) =>
    c.json(
      closeRequestBodies(
        app.getOpenAPI31Document({
          openapi: '3.1.0',
          info: {
            title: 'Memory API',
            version: '1.0.0',
            description: 'Agent memory service: Contexts, keys, facts, queries, sessions.',
          },
          servers: [{ url: new URL(c.req.url).origin }],
          security: [{ bearer: [] }],
        }),
      ),
    ),
  );
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description:
      "API key (mem_<agent|supervisor|management>_<secret>), or an OAuth access token of this origin's flow (memory scopes only)",
  });
  app.onError(handleError);
  return app;
}

export const memoryApp = createMemoryApp();
