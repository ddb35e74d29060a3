import { createExecutionContext, env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../../functions/index.ts';
import {
  checkResponse,
  hostileRequests,
  type HostileRequest,
} from '../../support/hostile-requests.ts';
import { BOOTSTRAP, call, setup, writeFact } from '../memory/helpers.ts';

// Thousands of seeded hostile requests over every memory route (the OpenAPI document's
// operations and /mcp) through the real Worker entry: none may answer 5xx, every refusal is an
// RFC 9457 problem, and a refused request writes nothing (row counts of the Context's SQLite, the
// control plane's D1 tables and R2's objects, compared before and after each one). The per-key
// rate limit is lifted so that requests reach validation instead of stopping at 429.
const SEED = 11_2026;
const COUNT = 1_000;
const ORIGIN = 'http://memory.test';
const fuzzEnv = { ...env, RATE_LIMIT_PER_MINUTE: '100000000' };

/** Row counts of everything a request could write, as one comparable string. */
async function snapshot(contextId: string): Promise<string> {
  const store = env.CONTEXT_STORE.getByName(contextId);
  const sqlite = await runInDurableObject(store, (_obj, state) => {
    const sql = state.storage.sql;
    const tables = sql
      .exec<{ name: string }>(
        // The access cache and rate windows are bookkeeping of every request, refused or not
        // (like D1's rate_limit_windows below), not memory a refused request may not write.
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT IN ('_access_keys', '_access_context', '_rate_windows') ORDER BY name",
      )
      .toArray()
      .map((t) => t.name);
    return tables.map(
      (t) => `${t}=${sql.exec<{ n: number }>(`SELECT count(*) AS n FROM "${t}"`).one().n}`,
    );
  });
  const d1Tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%' AND name NOT IN ('rate_limit_windows', 'key_cache_sites') ORDER BY name",
  ).all<{ name: string }>();
  const d1: string[] = [];
  for (const { name } of d1Tables.results) {
    const row = await env.DB.prepare(`SELECT count(*) AS n FROM "${name}"`).first<{ n: number }>();
    d1.push(`${name}=${row?.n ?? 0}`);
  }
  let blobs = 0;
  let cursor: string | undefined;
  do {
    const page = await env.BLOBS.list(cursor === undefined ? {} : { cursor });
    blobs += page.objects.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor !== undefined);
  return [...sqlite, ...d1, `r2=${blobs}`].join(' ');
}

async function send(req: HostileRequest): Promise<Response> {
  const init: RequestInit = { method: req.method, headers: req.headers };
  if (req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD') init.body = req.body;
  const request = new Request(`${ORIGIN}${req.path}`, init) as Request<
    unknown,
    IncomingRequestCfProperties
  >;
  return worker.fetch(request, fuzzEnv, createExecutionContext());
}

/** An accepted upload is processed by the queue consumer: wait for it so it cannot write later. */
async function settleDocument(res: Response, contextId: string, key: string): Promise<void> {
  const body = (await res.clone().json()) as { id?: unknown };
  if (typeof body.id !== 'string') return;
  for (let i = 0; i < 100; i++) {
    const doc = await call('GET', `/api/v1/${contextId}/documents/${encodeURIComponent(body.id)}`, {
      key,
    });
    const status = ((await doc.json()) as { status?: string }).status;
    if (status === 'completed' || status === 'failed') return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('hostile input over every memory route', () => {
  it(`answers ${COUNT} seeded hostile requests with no 5xx, problem bodies only, and no write when refusing`, async () => {
    const { ctx, key } = await setup();
    const fact = await writeFact(ctx, key, 'Alice leads the Platform team in Berlin');
    const docRes = await call('GET', '/api/v1/openapi.json', { key: null });
    expect(docRes.status).toBe(200);
    const doc = await docRes.json<Parameters<typeof hostileRequests>[0]>();
    const requests = hostileRequests(
      doc,
      { contextId: ctx, keys: [key, key, BOOTSTRAP], knownIds: [fact.id] },
      SEED,
      COUNT,
    );

    // Context ids that collide with management routes (`keys`, `contexts`, ...) are among them:
    // such a request once ran a data-plane handler without its credential (500).
    const reservedIds = requests.filter((r) => r.mutation.includes('reserved context_id='));
    expect(reservedIds.length).toBeGreaterThan(COUNT / 50);

    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let before = await snapshot(ctx);
    for (const req of requests) {
      const res = await send(req);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 202 && req.method === 'POST' && req.path.includes('/documents')) {
        await settleDocument(res, ctx, key);
      }
      const problem = await checkResponse(req, res);
      if (problem !== null) failures.push(problem);
      // Reads cannot write; counting after each of them would only slow the run down.
      if (req.method === 'GET' || req.method === 'HEAD') continue;
      const after = await snapshot(ctx);
      if (res.status >= 400 && after !== before) {
        failures.push(
          `refused with ${res.status} but wrote: ${req.method} ${req.path.slice(0, 100)} [${req.mutation}]\n  before ${before}\n  after  ${after}`,
        );
      }
      before = after;
    }
    // Most requests must get past authentication to validation: a fuzz that only ever meets 401
    // would prove nothing about the routes.
    const validation = statuses.get(400) ?? 0;
    expect(validation, JSON.stringify([...statuses])).toBeGreaterThan(COUNT / 5);
    expect(failures.slice(0, 20)).toEqual([]);
  }, 900_000);
});
