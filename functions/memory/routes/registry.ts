import type { MemoryApp } from '../hono-env.ts';

/**
 * A group of routes registered on the memory app. Each route file exports one; routes/index.ts
 * lists them. `register` adds its routes with `app.openapi(createRoute(...), handler)` (or plain
 * `app.get/post` for non-JSON endpoints such as MCP), so they share middleware, validation
 * errors, `app.onError` and the generated /api/v1/openapi.json.
 */
export interface RouteModule {
  name: string;
  register(app: MemoryApp): void;
}
