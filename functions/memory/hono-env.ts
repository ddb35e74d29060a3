import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Credential } from './access/access-types.ts';
import type { AuthContext } from './auth/principal.ts';
import type { OperationDeps } from './operations/deps.ts';

/** Per-request values set by the middleware chain (see app.ts). */
export interface MemoryVariables {
  /** Set by the request-id middleware on every memory response (`x-request-id`). */
  requestId: string;
  /** Set by the auth middleware on authenticated routes; read it with `principalOf(c)`. */
  auth: AuthContext;
  /**
   * Data-plane routes: the bearer key's kind and hash (or the grant of an OAuth access token,
   * resolved in the Worker), for the Context's object to check (`perform` in
   * routes/in-context.ts); `auth` is not set there.
   */
  credential: Credential;
  /** Data-plane routes: the per-minute limit and the clock the object counts with. */
  rate: { perMinute: number; nowMs: number };
  /** Dependencies of the operations (stores, embedder, hooks); built once per request. */
  deps: OperationDeps;
}

export interface MemoryEnv {
  Bindings: Env;
  Variables: MemoryVariables;
}

export type MemoryApp = OpenAPIHono<MemoryEnv>;
