// Fuzz part of `npm run bench -- fuzz` (also runnable alone: `node scripts/bench/fuzz.ts`, `FUZZ_COUNT=n` to change the count;
// needs `npm run build`). Sends seeded hostile requests (test/support/hostile-requests.ts, the
// generator the workerd fuzz test uses) over every memory route to a real `wrangler dev`, 8 at a
// time, while a poller asks `GET /health` every 50 ms and, as the peer in the same run, a static
// file (`/robots.txt`, served by the assets layer without the memory service). Reports responses
// by status class (any 5xx is a failure) and the latency p50/p99/max of both pollers.
import { pathToFileURL } from 'node:url';
import {
  checkResponse,
  hostileRequests,
  type HostileRequest,
} from '../../test/support/hostile-requests.ts';
import { startDevServer } from '../../test/support/wrangler-dev.ts';

const SEED = 16_2026;
const CONCURRENCY = 8;

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

async function post(
  base: string,
  path: string,
  key: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

function poll(url: string, stop: () => boolean): Promise<number[]> {
  return (async () => {
    const times: number[] = [];
    while (!stop()) {
      const t = performance.now();
      const res = await fetch(url);
      await res.arrayBuffer();
      times.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 50));
    }
    return times.sort((a, b) => a - b);
  })();
}

/**
 * `FUZZ_COUNT` overrides the 10,000 requests of the done-when (issue 16). Takes no parameter:
 * bench/index.ts hands every part the command line's flags, which are not a count.
 */
export async function runFuzzBench(): Promise<string> {
  const count = Number(process.env.FUZZ_COUNT ?? 10_000);
  const server = await startDevServer({ vars: { RATE_LIMIT_PER_MINUTE: '100000000' } });
  try {
    const base = server.url;
    const mgmt = server.bootstrapKey;
    const contextId = 'fuzz-bench';
    await post(base, '/api/v1/contexts', mgmt, { id: contextId });
    const principal = await post(base, '/api/v1/principals', mgmt, {
      kind: 'agent',
      display_name: 'fuzz',
    });
    const all = ['*'];
    const issued = await post(base, '/api/v1/keys', mgmt, {
      principal_id: principal.id,
      context_id: contextId,
      grants: { 'memory:read': all, 'memory:write': all, 'memory:forget': all },
    });
    const key = String(issued.key);
    const fact = await post(base, `/api/v1/${contextId}/facts`, key, {
      content: 'Alice leads Platform in Berlin',
    });
    const factId = String((fact.facts as { id: string }[])[0]?.id);
    const doc = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as Parameters<
      typeof hostileRequests
    >[0];
    const requests = hostileRequests(
      doc,
      { contextId, keys: [key, key, mgmt], knownIds: [factId] },
      SEED,
      count,
    );

    let done = false;
    const health = poll(`${base}/health`, () => done);
    const peer = poll(`${base}/robots.txt`, () => done);
    const classes = new Map<string, number>();
    const failures: string[] = [];
    let next = 0;
    const started = performance.now();
    const workerLoop = async () => {
      for (;;) {
        const req: HostileRequest | undefined = requests[next++];
        if (req === undefined) return;
        const init: RequestInit = { method: req.method, headers: req.headers };
        if (req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD')
          init.body = req.body;
        try {
          const res = await fetch(`${base}${req.path}`, init);
          const cls = `${Math.floor(res.status / 100)}xx`;
          classes.set(cls, (classes.get(cls) ?? 0) + 1);
          const problem = await checkResponse(req, res);
          if (problem !== null) failures.push(problem);
        } catch (err) {
          failures.push(`network error for ${req.method} ${req.path.slice(0, 80)}: ${String(err)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, workerLoop));
    const seconds = (performance.now() - started) / 1000;
    done = true;
    const [h, p] = await Promise.all([health, peer]);
    const fmt = (xs: number[]) =>
      `${quantile(xs, 0.5).toFixed(1)} / ${quantile(xs, 0.99).toFixed(1)} / ${(xs.at(-1) ?? 0).toFixed(1)} ms (${xs.length} polls)`;
    const rows = [...classes]
      .sort()
      .map(([c, n]) => `${c}: ${n}`)
      .join(', ');
    return [
      '## Hostile input (fuzz)',
      '',
      `\`npm run bench -- fuzz\`: ${count} seeded hostile requests (seed ${SEED}) over every memory route against \`wrangler dev\`, ${CONCURRENCY} in flight, in ${seconds.toFixed(1)} s.`,
      '',
      `| measure | value |`,
      `|---|---|`,
      `| responses by class | ${rows} |`,
      `| contract failures (5xx, non-problem errors) | ${failures.length} |`,
      `| \`GET /health\` p50 / p99 / max during the run | ${fmt(h)} |`,
      `| peer: \`GET /robots.txt\` (static asset) p50 / p99 / max | ${fmt(p)} |`,
      `| /health p99 ÷ static-asset p99 | ${(quantile(h, 0.99) / quantile(p, 0.99)).toFixed(2)} |`,
      ...(failures.length > 0
        ? [
            '',
            'First failures:',
            '',
            ...failures.slice(0, 5).map((f) => `- ${f.replaceAll('|', '\\|')}`),
          ]
        : []),
    ].join('\n');
  } finally {
    await server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(await runFuzzBench());
}
