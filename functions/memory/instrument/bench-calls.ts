import { benchCounts, injectedLatency } from './instrument-bindings.ts';

type Handler = (request: Request, env: Env, ctx: ExecutionContext) => Promise<Response>;

/**
 * Under `npm run bench -- edge` only (`BENCH_INJECT_LATENCY` set): reports the D1 statements and
 * Context-object calls this isolate made while answering, as `x-bench-calls: d1=<n>;object=<n>`
 * (exact when requests do not overlap; the bench sends them one at a time for this). The
 * Context objects run in the same isolate under `wrangler dev`, so their D1 reads count too.
 */
export function withBenchCalls(handler: Handler): Handler {
  return async function benchCalls(request, env, ctx) {
    if (!injectedLatency(env)) return handler(request, env, ctx);
    const before = { ...benchCounts };
    const res = await handler(request, env, ctx);
    const out = new Response(res.body, res);
    out.headers.set(
      'x-bench-calls',
      `d1=${benchCounts.d1 - before.d1};object=${benchCounts.object - before.object}`,
    );
    return out;
  };
}
