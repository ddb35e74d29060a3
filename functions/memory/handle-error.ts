import type { Context } from 'hono';
import { failureFromUnknown, problemFor } from './errors.ts';
import { modelFailure, ModelError } from './models/provider.ts';
import type { MemoryEnv } from './hono-env.ts';

// Apart from errors.ts so the error taxonomy stays a leaf that every layer may import: mapping
// a failure onto a request belongs to the HTTP edge, which knows the Hono env.

/** The one `app.onError` of the memory service. */
export function handleError(err: unknown, c: Context<MemoryEnv>): Response {
  const f = err instanceof ModelError ? modelFailure(err) : failureFromUnknown(err);
  const requestId = c.get('requestId') ?? crypto.randomUUID();
  if (f.kind === 'internal') console.error(`[${requestId}]`, err);
  const url = new URL(c.req.url);
  return problemFor(f, {
    requestId,
    instance: url.pathname,
    origin: url.origin,
    typeBase: c.env.ERROR_TYPE_BASE,
  });
}
