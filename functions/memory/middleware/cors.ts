import { cors } from 'hono/cors';
import type { MiddlewareHandler } from 'hono';
import type { MemoryEnv } from '../hono-env.ts';

/** CORS for browser clients; `Retry-After` and `x-request-id` are readable by scripts. */
export function memoryCors(): MiddlewareHandler<MemoryEnv> {
  return cors({
    origin: '*',
    allowMethods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    allowHeaders: [
      'Authorization',
      'Content-Type',
      'Idempotency-Key',
      'x-request-id',
      'mcp-session-id',
      'mcp-protocol-version',
    ],
    exposeHeaders: ['Retry-After', 'x-request-id'],
    maxAge: 600,
  });
}
