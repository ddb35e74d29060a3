import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryApp } from '../../../functions/memory/app.ts';
import { observeBindings } from '../../../functions/memory/instrument/instrument-bindings.ts';
import { call, createContext, issueKey, json, unique } from '../memory/helpers.ts';

// Issue 12: a data-plane request (`/api/v1/{context_id}/...`) makes no D1 call and exactly one
// call to its Context's object, which checks the key, counts the rate window and runs the
// operation. The routes come from the app's own route table (routes/index.ts -> registry), so a
// new data-plane route fails here until it has a sample request below, and then is counted.
// Counted: every D1 statement or batch and every Context-object call, made by the Worker or by
// any Context object (both get instrumented bindings while the observer is installed). R2 puts
// and queue sends are not counted: R2 is not D1, and a queue send is a background job.
//
// The one D1 write allowed, on the routes that start background work (a document's processing,
// a turn's fact extraction): the job's ledger row, `INSERT INTO jobs`, written with its queue
// send (jobs/enqueue.ts). It is the durable record the scheduler re-sends a lost message from
// and `/migrations` reports; it is a write of the background job, never a read of the request.

const JOB_LEDGER = /^\s*INSERT INTO jobs \(/;
const ENQUEUES_A_JOB = new Set([
  'POST /api/v1/:context_id/documents',
  'POST /api/v1/:context_id/sessions/:session_id/turns',
]);

const counts = { d1: 0, object: 0, methods: [] as string[], sql: [] as string[] };
let counting = false;

beforeAll(() => {
  observeBindings({
    d1(sql) {
      if (!counting) return;
      counts.d1 += 1;
      counts.sql.push(...sql);
    },
    object(method) {
      if (!counting) return;
      counts.object += 1;
      counts.methods.push(method);
    },
  });
});
afterAll(() => observeBindings(null));

interface Sample {
  method: string;
  path: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** The status the request must answer (the route's success). */
  status: number;
}

/** Fixtures made before counting starts, with the same key. */
interface World {
  ctx: string;
  key: string;
  fact: () => Promise<string>;
  session: () => Promise<string>;
  document: () => Promise<string>;
}

const SAMPLES: Record<string, (w: World) => Promise<Sample>> = {
  'POST /api/v1/:context_id/facts': async (w) => ({
    method: 'POST',
    path: `/api/v1/${w.ctx}/facts`,
    body: { content: 'Ada maintains the billing service.' },
    status: 201,
  }),
  'GET /api/v1/:context_id/facts': async (w) => ({
    method: 'GET',
    path: `/api/v1/${w.ctx}/facts`,
    status: 200,
  }),
  'POST /api/v1/:context_id/facts/batch': async (w) => ({
    method: 'POST',
    path: `/api/v1/${w.ctx}/facts/batch`,
    body: { facts: [{ content: 'Grace reviews the deploys.' }, { content: 'Linus owns CI.' }] },
    status: 201,
  }),
  'GET /api/v1/:context_id/facts/:id': async (w) => ({
    method: 'GET',
    path: `/api/v1/${w.ctx}/facts/${await w.fact()}`,
    status: 200,
  }),
  'DELETE /api/v1/:context_id/facts/:id': async (w) => ({
    method: 'DELETE',
    path: `/api/v1/${w.ctx}/facts/${await w.fact()}`,
    status: 204,
  }),
  'GET /api/v1/:context_id/facts/:id/history': async (w) => ({
    method: 'GET',
    path: `/api/v1/${w.ctx}/facts/${await w.fact()}/history`,
    status: 200,
  }),
  'PATCH /api/v1/:context_id/facts/:id': async (w) => ({
    method: 'PATCH',
    path: `/api/v1/${w.ctx}/facts/${await w.fact()}`,
    body: { content: 'Ada now maintains the billing service and its alerts.' },
    status: 200,
  }),
  'GET /api/v1/:context_id/entities': async (w) => ({
    method: 'GET',
    path: `/api/v1/${w.ctx}/entities`,
    status: 200,
  }),
  // An entity the fixture facts gave the Context, read before counting starts.
  'GET /api/v1/:context_id/entities/:name': async (w) => {
    const res = await call('GET', `/api/v1/${w.ctx}/entities`, { key: w.key });
    const name = (await json<{ entities: { name: string }[] }>(res)).entities[0]?.name ?? '';
    return {
      method: 'GET',
      path: `/api/v1/${w.ctx}/entities/${encodeURIComponent(name)}`,
      status: 200,
    };
  },
  'POST /api/v1/:context_id/query': async (w) => ({
    method: 'POST',
    path: `/api/v1/${w.ctx}/query`,
    body: { query: 'who maintains billing', mode: 'hybrid_graph' },
    status: 200,
  }),
  'POST /api/v1/:context_id/sessions': async (w) => ({
    method: 'POST',
    path: `/api/v1/${w.ctx}/sessions`,
    body: {},
    status: 201,
  }),
  'GET /api/v1/:context_id/sessions': async (w) => ({
    method: 'GET',
    path: `/api/v1/${w.ctx}/sessions`,
    status: 200,
  }),
  'GET /api/v1/:context_id/sessions/:session_id': async (w) => ({
    method: 'GET',
    path: `/api/v1/${w.ctx}/sessions/${await w.session()}`,
    status: 200,
  }),
  'DELETE /api/v1/:context_id/sessions/:session_id': async (w) => ({
    method: 'DELETE',
    path: `/api/v1/${w.ctx}/sessions/${await w.session()}`,
    status: 204,
  }),
  'POST /api/v1/:context_id/sessions/:session_id/turns': async (w) => ({
    method: 'POST',
    path: `/api/v1/${w.ctx}/sessions/${await w.session()}/turns`,
    body: { role: 'user', content: 'Ada moved to the Lisbon office.' },
    status: 201,
  }),
  'GET /api/v1/:context_id/sessions/:session_id/turns': async (w) => ({
    method: 'GET',
    path: `/api/v1/${w.ctx}/sessions/${await w.session()}/turns`,
    status: 200,
  }),
  'GET /api/v1/:context_id/sessions/:session_id/context': async (w) => ({
    method: 'GET',
    path: `/api/v1/${w.ctx}/sessions/${await w.session()}/context`,
    status: 200,
  }),
  'POST /api/v1/:context_id/context': async (w) => ({
    method: 'POST',
    path: `/api/v1/${w.ctx}/context`,
    body: { query: 'billing' },
    status: 200,
  }),
  'POST /api/v1/:context_id/chat': async (w) => ({
    method: 'POST',
    path: `/api/v1/${w.ctx}/chat`,
    body: { message: 'Who maintains the billing service?' },
    status: 200,
  }),
  'POST /api/v1/:context_id/reflect': async (w) => ({
    method: 'POST',
    path: `/api/v1/${w.ctx}/reflect`,
    body: {},
    status: 200,
  }),
  'POST /api/v1/:context_id/consolidate': async (w) => ({
    method: 'POST',
    path: `/api/v1/${w.ctx}/consolidate`,
    body: { dry_run: true },
    status: 200,
  }),
  // The file goes to R2 and its processing to the queue inside the same object call.
  'POST /api/v1/:context_id/documents': async (w) => ({
    method: 'POST',
    path: `/api/v1/${w.ctx}/documents?filename=notes.md`,
    rawBody: `# Notes ${unique('n')}\n\nAda maintains billing.`,
    headers: { 'content-type': 'text/markdown' },
    status: 202,
  }),
  'GET /api/v1/:context_id/documents': async (w) => ({
    method: 'GET',
    path: `/api/v1/${w.ctx}/documents`,
    status: 200,
  }),
  'GET /api/v1/:context_id/documents/:id': async (w) => ({
    method: 'GET',
    path: `/api/v1/${w.ctx}/documents/${encodeURIComponent(await w.document())}`,
    status: 200,
  }),
  'DELETE /api/v1/:context_id/documents/:id': async (w) => ({
    method: 'DELETE',
    path: `/api/v1/${w.ctx}/documents/${encodeURIComponent(await w.document())}`,
    status: 204,
  }),
};

/** Every data-plane route of the app: method and path of each handler under /api/v1/{ctx}/. */
function dataPlaneRoutes(): string[] {
  const seen = new Set<string>();
  for (const r of createMemoryApp().routes) {
    if (r.method === 'ALL' || !r.path.startsWith('/api/v1/:context_id/')) continue;
    seen.add(`${r.method} ${r.path}`);
  }
  return [...seen].sort();
}

async function send(s: Sample, key: string): Promise<Response> {
  return call(s.method, s.path, {
    key,
    ...(s.body === undefined ? {} : { body: s.body }),
    ...(s.rawBody === undefined ? {} : { rawBody: s.rawBody }),
    ...(s.headers === undefined ? {} : { headers: s.headers }),
  });
}

async function world(kind: 'agent' | 'supervisor' | 'management'): Promise<World> {
  const ctx = await createContext(unique('hot'));
  const key = await issueKey(ctx, undefined, { kind });
  const fact = async () => {
    const res = await call('POST', `/api/v1/${ctx}/facts`, {
      key,
      body: { content: `Fixture ${unique('f')} about billing` },
    });
    return (await json<{ facts: { id: string }[] }>(res)).facts[0]?.id ?? '';
  };
  const session = async () => {
    const res = await call('POST', `/api/v1/${ctx}/sessions`, { key, body: {} });
    return (await json<{ id: string }>(res)).id;
  };
  const document = async () => {
    const res = await call('POST', `/api/v1/${ctx}/documents?filename=f.md`, {
      key,
      rawBody: `# Fixture ${unique('d')}\n\nText.`,
      headers: { 'content-type': 'text/markdown' },
    });
    return (await json<{ id: string }>(res)).id;
  };
  await fact();
  return { ctx, key, fact, session, document };
}

describe('one hop per request: 0 D1 calls and 1 Context-object call per data-plane route', () => {
  it('has a sample request for every data-plane route of the app', () => {
    const routes = dataPlaneRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(21);
    expect(routes.filter((r) => !(r in SAMPLES))).toEqual([]);
  });

  it.each(dataPlaneRoutes())('%s', async (route) => {
    const build = SAMPLES[route];
    if (!build) throw new Error(`no sample for ${route}`);
    const w = await world('agent');
    // A first request with the key fills the object's cache (one D1 batch); then it is warm.
    expect((await call('GET', `/api/v1/${w.ctx}/facts`, { key: w.key })).status).toBe(200);
    const sample = await build(w);
    Object.assign(counts, { d1: 0, object: 0, methods: [], sql: [] });
    counting = true;
    let res: Response;
    try {
      res = await send(sample, w.key);
      await res.clone().text();
    } finally {
      counting = false;
    }
    expect(res.status, await res.text()).toBe(sample.status);
    expect({ object: counts.object, methods: counts.methods }).toEqual({
      object: 1,
      methods: ['perform'],
    });
    if (ENQUEUES_A_JOB.has(route)) {
      expect(counts.sql.length, counts.sql.join('\n')).toBe(1);
      expect(counts.sql[0]).toMatch(JOB_LEDGER);
    } else {
      expect(counts.sql, 'D1 statements on the hot path').toEqual([]);
    }
  });

  it('reads D1 once per key and Context, then never again: an unknown key is remembered too', async () => {
    const w = await world('agent');
    const other = await issueKey(w.ctx);
    const bogus = `mem_agent_${'x'.repeat(40)}`;
    const measure = async (key: string) => {
      Object.assign(counts, { d1: 0, object: 0, methods: [], sql: [] });
      counting = true;
      try {
        return (await call('GET', `/api/v1/${w.ctx}/facts`, { key })).status;
      } finally {
        counting = false;
      }
    };
    expect(await measure(other)).toBe(200);
    expect(counts).toMatchObject({ d1: 1, object: 1 });
    expect(await measure(other)).toBe(200);
    expect(counts).toMatchObject({ d1: 0, object: 1 });
    expect(await measure(bogus)).toBe(401);
    expect(counts).toMatchObject({ d1: 1, object: 1 });
    expect(await measure(bogus)).toBe(401);
    expect(counts).toMatchObject({ d1: 0, object: 1 });
  });
});
