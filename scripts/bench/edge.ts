// Edge part of `npm run bench` (`npm run bench -- edge`; needs `npm run build`): the data-plane
// hot path through the Worker under `wrangler dev`, issue 12.
//   (a) With latency injected into each binding (BENCH_INJECT_LATENCY: D1 +60 ms, the Context
//       object +10 ms, as a distant region would see): calls per request (D1 statements and
//       object calls, from `x-bench-calls`), p50/p95 per route, and requests/s under autocannon
//       (32 connections) for a fact read, a bm25 and a hybrid query, against `/health`.
//   (b) Without injected latency: one interleaved run of `/health`, a fact read and a bm25 query
//       over 2,000 facts (p50 ratios against `/health`), and autocannon req/s ratios for a fact
//       read and a hybrid query against `/health` (the done-when figures), in alternating
//       bursts so that the machine's drift falls on every route alike.
// The peer is `/health` on the same server in the same run: no auth, no D1, no object. Beside it,
// the floor of the one object call every data-plane request makes: a read of a fact id that does
// not exist (the same middleware, RPC, access check and rate window; one indexed miss; a 404).
// And the platform's floor, on a second `wrangler dev` in rounds of its own: a Worker of a few
// lines (floor-worker/) whose read makes one object call, against its own `/health`.
import autocannon from 'autocannon';
import { startDevServer, type DevServer } from '../../test/support/wrangler-dev.ts';
import { managementCall, percentile } from './dev-api.ts';

const FACTS = 2_000;
const BATCH = 100;
const CONNECTIONS = 32;
/** Alternating autocannon bursts per route in part (b). */
const LOAD_ROUNDS = 3;
/** The one-object-call floor: a fact id that does not exist (404). */
const FLOOR = 'one object call (unknown fact, 404)';
/** The platform's floor: the least Worker with one object call (floor-worker/), same run. */
const PLATFORM_CONFIG = 'scripts/bench/floor-worker/wrangler.toml';
const PLATFORM_HEALTH = 'platform floor: its /health';
const PLATFORM_CALL = 'platform floor: one object call';
const PLATFORM_QUERY = 'platform floor: POST query, ten hits';
/** The query the bm25 and hybrid targets ask. */
const QUESTION = 'who reviews the billing roadmap in Osaka';

const TEAMS = ['payments', 'search', 'billing', 'identity', 'storage', 'mobile', 'growth'];
const PEOPLE = ['Ada', 'Grace', 'Linus', 'Barbara', 'Ken', 'Margaret', 'Dennis', 'Frances'];
const CITIES = ['Lisbon', 'Berlin', 'Nairobi', 'Osaka', 'Toronto', 'Lima', 'Oslo'];
function fact(i: number): string {
  const who = PEOPLE[i % PEOPLE.length];
  const team = TEAMS[Math.floor(i / PEOPLE.length) % TEAMS.length];
  const city = CITIES[Math.floor(i / (PEOPLE.length * TEAMS.length)) % CITIES.length];
  return `${who} reviews the ${team} roadmap from the ${city} office (note ${i})`;
}

interface Target {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  auth: boolean;
  /** The status it answers with; by default any 2xx. */
  status?: number;
  /** Another server than the product's (the platform floor's Worker). */
  via?: DevServer;
}

interface Setup {
  key: string;
  targets: Target[];
}

const ms = (n: number) => n.toFixed(n < 10 ? 2 : 1);
const ratio = (n: number) => `${n.toFixed(2)}×`;

async function prepare(server: DevServer): Promise<Setup> {
  const ctx = 'bench-edge';
  await managementCall(server, 'POST', '/api/v1/contexts', { id: ctx });
  const principal = (await managementCall(server, 'POST', '/api/v1/principals', {
    kind: 'agent',
    display_name: 'edge-bench',
  })) as { id: string };
  const issued = (await managementCall(server, 'POST', '/api/v1/keys', {
    principal_id: principal.id,
    context_id: ctx,
    grants: { 'memory:read': ['*'], 'memory:write': ['*'], 'memory:forget': ['*'] },
  })) as { key: string };
  let firstId = '';
  for (let start = 0; start < FACTS; start += BATCH) {
    const facts = Array.from({ length: BATCH }, (_, j) => ({ content: fact(start + j) }));
    const res = await fetch(`${server.url}/api/v1/${ctx}/facts/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${issued.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ facts }),
    });
    if (res.status !== 201) throw new Error(`batch: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { facts: { id: string }[] };
    firstId ||= body.facts[0]?.id ?? '';
  }
  const query = (mode: string) => ({ query: QUESTION, mode });
  return {
    key: issued.key,
    targets: [
      { name: 'GET /health', method: 'GET', path: '/health', auth: false },
      { name: 'fact read', method: 'GET', path: `/api/v1/${ctx}/facts/${firstId}`, auth: true },
      {
        name: FLOOR,
        method: 'GET',
        path: `/api/v1/${ctx}/facts/fact_not_stored`,
        auth: true,
        status: 404,
      },
      { name: 'fact list (50)', method: 'GET', path: `/api/v1/${ctx}/facts`, auth: true },
      {
        name: 'fact write',
        method: 'POST',
        path: `/api/v1/${ctx}/facts`,
        body: { content: 'Ada moved to the Lima office.' },
        auth: true,
      },
      {
        name: 'bm25 query',
        method: 'POST',
        path: `/api/v1/${ctx}/query`,
        body: query('bm25'),
        auth: true,
      },
      {
        name: 'hybrid query',
        method: 'POST',
        path: `/api/v1/${ctx}/query`,
        body: query('hybrid'),
        auth: true,
      },
    ],
  };
}

function init(t: Target, key: string): RequestInit {
  const headers: Record<string, string> = {};
  if (t.auth) headers.authorization = `Bearer ${key}`;
  if (t.body !== undefined) headers['content-type'] = 'application/json';
  return {
    method: t.method,
    headers,
    ...(t.body === undefined ? {} : { body: JSON.stringify(t.body) }),
  };
}

async function timed(
  server: DevServer,
  t: Target,
  key: string,
): Promise<{ ms: number; calls: string }> {
  const start = performance.now();
  const res = await fetch(`${(t.via ?? server).url}${t.path}`, init(t, key));
  await res.arrayBuffer();
  const elapsed = performance.now() - start;
  const expected = t.status === undefined ? res.status < 300 : res.status === t.status;
  if (!expected) throw new Error(`${t.name}: ${res.status}`);
  return { ms: elapsed, calls: res.headers.get('x-bench-calls') ?? 'n/a' };
}

/** Rounds of every target in turn, so that machine load falls on all of them alike. */
async function interleaved(server: DevServer, setup: Setup, targets: Target[], rounds: number) {
  const samples = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  const calls = new Map<string, Set<string>>(targets.map((t) => [t.name, new Set()]));
  for (let r = 0; r < rounds; r++) {
    for (const t of targets) {
      const { ms, calls: c } = await timed(server, t, setup.key);
      samples.get(t.name)?.push(ms);
      calls.get(t.name)?.add(c);
    }
  }
  return { samples, calls };
}

async function load(
  server: DevServer,
  t: Target,
  key: string,
  seconds: number,
): Promise<{ rps: number; non2xx: number; errors: number }> {
  const options = init(t, key);
  const result = await autocannon({
    url: `${(t.via ?? server).url}${t.path}`,
    connections: CONNECTIONS,
    duration: seconds,
    method: t.method,
    headers: (options.headers ?? {}) as Record<string, string>,
    ...(typeof options.body === 'string' ? { body: options.body } : {}),
  });
  return { rps: result.requests.average, non2xx: result.non2xx, errors: result.errors };
}

/**
 * Alternating bursts of `targets`, `LOAD_ROUNDS` rounds: mean req/s and summed failures per
 * route. A burst of /health that happened to meet a quiet machine no longer sets the ratio of
 * every route after it.
 */
async function alternatingLoad(
  server: DevServer,
  targets: Target[],
  key: string,
  burst: number,
): Promise<Map<string, { rps: number; non2xx: number; errors: number }>> {
  const totals = new Map(targets.map((t) => [t.name, { rps: 0, non2xx: 0, errors: 0 }]));
  for (let round = 0; round < LOAD_ROUNDS; round++) {
    for (const t of targets) {
      const r = await load(server, t, key, burst);
      const sum = totals.get(t.name);
      if (!sum) continue;
      sum.rps += r.rps / LOAD_ROUNDS;
      sum.non2xx += r.non2xx;
      sum.errors += r.errors;
    }
  }
  return totals;
}

function flag(flags: string[], name: string, fallback: number): number {
  const raw = flags.find((f) => f.startsWith(`--${name}=`))?.split('=')[1];
  const n = raw === undefined ? Number.NaN : Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export async function runEdgeBench(flags: string[] = []): Promise<string | null> {
  const rounds = flag(flags, 'rounds', 300);
  const seconds = flag(flags, 'seconds', 10);
  // `--no-injected`: only part (b), printed but not written to BENCHMARKS.md (a partial run).
  const partial = flags.includes('--no-injected');
  const vars = { RATE_LIMIT_PER_MINUTE: '100000000', MAX_IN_FLIGHT: '100000' };
  const lines: string[] = [];
  if (!partial) lines.push(...(await injectedPart(vars, seconds)));
  lines.push(...(await doneWhenPart(vars, rounds, seconds)));
  if (partial) {
    console.log(lines.join('\n'));
    return null;
  }
  return ['## Edge hot path (issue 12)', '', ...lines].join('\n');
}

/** (a) With latency injected into each binding. */
async function injectedPart(vars: Record<string, string>, seconds: number): Promise<string[]> {
  const lines: string[] = [];
  const slow = await startDevServer({
    vars: { ...vars, BENCH_INJECT_LATENCY: 'd1=60,object=10' },
  });
  try {
    const setup = await prepare(slow);
    const read = setup.targets.find((t) => t.name === 'fact read');
    if (!read) throw new Error('no fact read target');
    // A key the object has not seen: its first request reads D1 once, later ones never.
    const principal = (await managementCall(slow, 'POST', '/api/v1/principals', {
      kind: 'agent',
      display_name: 'edge-bench-cold',
    })) as { id: string };
    const cold = (await managementCall(slow, 'POST', '/api/v1/keys', {
      principal_id: principal.id,
      context_id: 'bench-edge',
      grants: { 'memory:read': ['*'] },
    })) as { key: string };
    const first = await timed(slow, read, cold.key);
    const second = await timed(slow, read, cold.key);
    const { samples, calls } = await interleaved(slow, setup, setup.targets, 40);
    lines.push(
      '### Injected latency: D1 +60 ms, Context object +10 ms',
      '',
      `\`npm run bench -- edge\`: \`wrangler dev\` with \`BENCH_INJECT_LATENCY=d1=60,object=10\`, ${FACTS.toLocaleString('en')} facts in one Context, 40 interleaved rounds per route. Calls per request come from the Worker's \`x-bench-calls\` header (D1 statements or batches, and Context-object calls, made by the Worker and by the object).`,
      '',
      '| route | calls per request | p50 ms | p95 ms |',
      '|---|---|---|---|',
      ...setup.targets.map((t) => {
        const s = samples.get(t.name) ?? [];
        return `| ${t.name} | ${[...(calls.get(t.name) ?? [])].join(', ')} | ${ms(percentile(s, 50))} | ${ms(percentile(s, 95))} |`;
      }),
      '',
      `A key the object has not seen yet: its first fact read \`${first.calls}\` (${ms(first.ms)} ms), the next \`${second.calls}\` (${ms(second.ms)} ms).`,
      '',
    );
    const loadTargets = setup.targets.filter((t) =>
      ['GET /health', 'fact read', 'bm25 query', 'hybrid query'].includes(t.name),
    );
    const rows: string[] = [];
    let health = 0;
    for (const t of loadTargets) {
      const r = await load(slow, t, setup.key, seconds);
      if (t.name === 'GET /health') health = r.rps;
      rows.push(
        `| ${t.name} | ${r.rps.toFixed(0)} | ${health > 0 ? ratio(r.rps / health) : ''} | ${r.non2xx} | ${r.errors} |`,
      );
    }
    lines.push(
      `Under load (autocannon, ${CONNECTIONS} connections, ${seconds} s per route, same server):`,
      '',
      '| route | req/s | vs /health | non-2xx | errors |',
      '|---|---|---|---|---|',
      ...rows,
      '',
    );
  } finally {
    await slow.stop();
  }
  return lines;
}

/** (b) No injected latency: the done-when figures. */
async function doneWhenPart(
  vars: Record<string, string>,
  rounds: number,
  seconds: number,
): Promise<string[]> {
  const lines: string[] = [];
  const fast = await startDevServer({ vars });
  const platform = await startDevServer({ config: PLATFORM_CONFIG });
  try {
    const setup = await prepare(fast);
    const pick = (name: string) => {
      const t = setup.targets.find((x) => x.name === name);
      if (!t) throw new Error(`no target ${name}`);
      return t;
    };
    const platformHealth: Target = {
      name: PLATFORM_HEALTH,
      method: 'GET',
      path: '/health',
      auth: false,
      via: platform,
    };
    const platformCall: Target = {
      name: PLATFORM_CALL,
      method: 'GET',
      path: '/one-call',
      auth: false,
      via: platform,
    };
    const platformQuery: Target = {
      name: PLATFORM_QUERY,
      method: 'POST',
      path: '/query',
      body: { query: QUESTION, mode: 'bm25' },
      auth: false,
      via: platform,
    };
    const trio = [pick('GET /health'), pick(FLOOR), pick('fact read'), pick('bm25 query')];
    const { samples } = await interleaved(fast, setup, trio, rounds);
    // Its own rounds, after: requests to a second server between the product's would leave the
    // product's process idle between requests, which moved every ratio (1.29x -> 1.16x for the
    // 404 floor in one trial), so the done-when rounds stay exactly as they were.
    const floor = await interleaved(
      fast,
      setup,
      [platformHealth, platformCall, platformQuery],
      rounds,
    );
    // How large each answer to the same query body is, so that the two can be compared.
    const answerBytes = async (t: Target) =>
      (await (await fetch(`${(t.via ?? fast).url}${t.path}`, init(t, setup.key))).arrayBuffer())
        .byteLength;
    const productBytes = await answerBytes(pick('bm25 query'));
    const floorBytes = await answerBytes(platformQuery);
    for (const [name, s] of floor.samples) samples.set(name, s);
    const p50 = (name: string) => percentile(samples.get(name) ?? [], 50);
    const healthP50 = p50('GET /health');
    const platformRatio = p50(PLATFORM_CALL) / p50(PLATFORM_HEALTH);
    lines.push(
      '### No injected latency: the done-when figures',
      '',
      `${rounds} interleaved rounds under \`wrangler dev\`, ${FACTS.toLocaleString('en')} facts in the Context:`,
      '',
      '| route | p50 ms | p95 ms | p50 vs /health |',
      '|---|---|---|---|',
      ...trio.map((t) => {
        const s = samples.get(t.name) ?? [];
        return `| ${t.name} | ${ms(percentile(s, 50))} | ${ms(percentile(s, 95))} | ${ratio(p50(t.name) / healthP50)} |`;
      }),
      '',
      `The platform's floor, in ${rounds} rounds of its own right after: a Worker of a few lines (\`scripts/bench/floor-worker\`) with the product's routing (static assets, Worker first), date and flags, whose read makes one Durable Object call that returns a record from memory. Its p50 is ${ms(p50(PLATFORM_CALL))} ms against its own \`/health\`'s ${ms(p50(PLATFORM_HEALTH))} ms: **${ratio(platformRatio)}**. A fact read cannot be under that ratio while it makes the one object call the issue asks for.`,
      '',
      `In the same rounds the platform floor's \`POST /query\` takes the bm25 query's body and answers, from one object call that runs no search, with ten hits shaped as the product's (${floorBytes.toLocaleString('en')} bytes against the product's ${productBytes.toLocaleString('en')}): ${ms(p50(PLATFORM_QUERY))} ms, **${ratio(p50(PLATFORM_QUERY) / p50(PLATFORM_HEALTH))}** its \`/health\`. That is what a POST of that body and an answer of that size cost on this machine before any of our code runs.`,
      '',
    );
    const loadTargets = [pick('GET /health'), pick(FLOOR), pick('fact read'), pick('hybrid query')];
    const burst = Math.max(2, Math.ceil(seconds / LOAD_ROUNDS));
    const totals = await alternatingLoad(fast, loadTargets, setup.key, burst);
    // The platform floor's own bursts after, alternating between its two routes likewise.
    const floorTotals = await alternatingLoad(
      fast,
      [platformHealth, platformCall],
      setup.key,
      burst,
    );
    const floorHealth = floorTotals.get(PLATFORM_HEALTH)?.rps ?? 0;
    const floorCall = floorTotals.get(PLATFORM_CALL)?.rps ?? 0;
    const health = totals.get('GET /health')?.rps ?? 0;
    const rows = loadTargets.map((t) => {
      const r = totals.get(t.name) ?? { rps: 0, non2xx: 0, errors: 0 };
      // The floor answers 404 by design: those are not failures.
      const non2xx = t.status === undefined ? String(r.non2xx) : `${r.non2xx} (all ${t.status})`;
      return `| ${t.name} | ${r.rps.toFixed(0)} | ${health > 0 ? ratio(r.rps / health) : ''} | ${non2xx} | ${r.errors} |`;
    });
    lines.push(
      `Under load (autocannon, ${CONNECTIONS} connections; ${LOAD_ROUNDS} rounds of ${burst} s per route, the routes alternating; mean req/s):`,
      '',
      '| route | req/s | vs /health | non-2xx | errors |',
      '|---|---|---|---|---|',
      ...rows,
      '',
      `The platform's floor under the same load, in bursts of its own after: ${floorCall.toFixed(0)} req/s for its one object call against ${floorHealth.toFixed(0)} for its \`/health\`, **${floorHealth > 0 ? ratio(floorCall / floorHealth) : 'n/a'}**.`,
    );
  } finally {
    await fast.stop();
    await platform.stop();
  }
  return lines;
}
