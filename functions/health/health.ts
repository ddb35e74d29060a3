import { problemBody, problemResponse, errorTypeBase } from '../../src/lib/problem.ts';
import type { InvalidSetting } from '../config/settings.ts';
import { problemFor } from '../memory/errors.ts';
import { runDeepChecks } from './deep-checks.ts';

const NO_STORE = { 'cache-control': 'no-store' };

/**
 * `GET /health`, answered by the Worker entry before anything else runs (OAuth, routing, the
 * in-flight cap, auth, rate limits), so it stays fast while the API is loaded and is never shed.
 * It touches no storage unless `?deep=1` asks it to probe D1, Durable Objects and R2. A Worker
 * whose settings were refused answers 503 `misconfigured` naming them, never `ok`.
 */
export async function handleHealth(
  request: Request,
  env: Env,
  invalid: readonly InvalidSetting[] | null,
): Promise<Response> {
  const res = await healthResponse(request, env, invalid);
  // Like every memory response, it carries a request id (a fresh one: nothing to correlate).
  if (!res.headers.has('x-request-id')) res.headers.set('x-request-id', crypto.randomUUID());
  return res;
}

async function healthResponse(
  request: Request,
  env: Env,
  invalid: readonly InvalidSetting[] | null,
): Promise<Response> {
  if (invalid !== null) {
    const refused = misconfiguredResponse(request, invalid);
    refused.headers.set('cache-control', 'no-store');
    return refused;
  }
  const url = new URL(request.url);
  if (url.searchParams.get('deep') !== '1') {
    return Response.json({ status: 'ok' }, { headers: NO_STORE });
  }
  const checks = await runDeepChecks(env);
  const failing = Object.entries(checks).filter(([, check]) => check.status !== 'ok');
  if (failing.length === 0) return Response.json({ status: 'ok', checks }, { headers: NO_STORE });
  const body = problemBody({
    slug: 'service-unavailable',
    detail: `backing store check failed: ${failing.map(([name]) => name).join(', ')}`,
    instance: url.pathname,
    typeBase: errorTypeBase(env.ERROR_TYPE_BASE, url.origin),
    extensions: { checks },
  });
  return problemResponse(body, { ...NO_STORE, 'retry-after': '5' });
}

/** The 503 every request gets from a Worker whose settings were refused. */
export function misconfiguredResponse(
  request: Request,
  invalid: readonly InvalidSetting[],
): Response {
  const url = new URL(request.url);
  return problemFor(
    {
      kind: 'misconfigured',
      detail: `refused to start: ${invalid.map((i) => `${i.name} ${i.problem}`).join('; ')}`,
      invalidSettings: [...invalid],
    },
    {
      requestId: crypto.randomUUID(),
      instance: url.pathname,
      origin: url.origin,
      // ERROR_TYPE_BASE may be the refused setting itself: use the origin's own /errors pages.
      typeBase: undefined,
    },
  );
}
