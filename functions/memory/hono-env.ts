import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AuthContext } from './auth/principal.ts';
import type { OperationDeps } from './operations/deps.ts';

/** Per-request values set by the middleware chain (see app.ts). */
export interface MemoryVariables {
  /** Set by the request-id middleware on every memory response (`x-request-id`). */
  requestId: string;
  /** Set by the auth middleware on authenticated routes; read it with `principalOf(c)`. */
  auth: AuthContext;
  /** Dependencies of the operations (stores, embedder, hooks); built once per request. */
  deps: OperationDeps;
}

export interface MemoryEnv {
  Bindings: Env;
  Variables: MemoryVariables;
}

export type MemoryApp = OpenAPIHono<MemoryEnv>;
