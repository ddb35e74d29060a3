import { describe, expect, it } from 'vitest';
import { call, createContext, json } from './model-api.ts';

interface Seed {
  ctx: string;
  factId: string;
  deleteId: string;
}

interface Row {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  path: (s: Seed) => string;
  body?: unknown;
  ok: number;
  /** Model-backed: refused with 429 while the Context is blocked. */
  modelBacked: boolean;
}

// Every data-plane endpoint. Model-backed requests use messages that are new in each state, so
// they miss the cache and really need a model call.
const ROWS: Row[] = [
  {
    name: 'GET context',
    method: 'GET',
    path: (s) => `/api/v1/contexts/${s.ctx}`,
    ok: 200,
    modelBacked: false,
  },
  {
    name: 'POST facts (direct)',
    method: 'POST',
    path: (s) => `/api/v1/${s.ctx}/facts`,
    body: { content: 'Amara likes figs.' },
    ok: 201,
    modelBacked: false,
  },
  {
    name: 'POST facts?infer=full',
    method: 'POST',
    path: (s) => `/api/v1/${s.ctx}/facts?infer=full`,
    body: { content: 'I like plums.', metadata: { speaker: 'Amara' } },
    ok: 201,
    modelBacked: true,
  },
  {
    name: 'POST facts/batch',
    method: 'POST',
    path: (s) => `/api/v1/${s.ctx}/facts/batch`,
    body: { facts: [{ content: 'Amara owns a kayak.' }] },
    ok: 201,
    modelBacked: false,
  },
  {
    name: 'GET facts',
    method: 'GET',
    path: (s) => `/api/v1/${s.ctx}/facts`,
    ok: 200,
    modelBacked: false,
  },
  {
    name: 'GET fact',
    method: 'GET',
    path: (s) => `/api/v1/${s.ctx}/facts/${s.factId}`,
    ok: 200,
    modelBacked: false,
  },
  {
    name: 'DELETE fact',
    method: 'DELETE',
    path: (s) => `/api/v1/${s.ctx}/facts/${s.deleteId}`,
    ok: 204,
    modelBacked: false,
  },
  {
    name: 'POST query',
    method: 'POST',
    path: (s) => `/api/v1/${s.ctx}/query`,
    body: { query: 'Amara', mode: 'hybrid' },
    ok: 200,
    modelBacked: false,
  },
  {
    name: 'POST context block',
    method: 'POST',
    path: (s) => `/api/v1/${s.ctx}/context`,
    body: { query: 'Amara' },
    ok: 200,
    modelBacked: false,
  },
  {
    name: 'POST sessions',
    method: 'POST',
    path: (s) => `/api/v1/${s.ctx}/sessions`,
    body: {},
    ok: 201,
    modelBacked: false,
  },
  {
    name: 'GET sessions',
    method: 'GET',
    path: (s) => `/api/v1/${s.ctx}/sessions`,
    ok: 200,
    modelBacked: false,
  },
  {
    name: 'GET session',
    method: 'GET',
    path: (s) => `/api/v1/${s.ctx}/sessions/s1`,
    ok: 200,
    modelBacked: false,
  },
  {
    name: 'POST turn',
    method: 'POST',
    path: (s) => `/api/v1/${s.ctx}/sessions/s1/turns`,
    body: { role: 'user', content: 'I swim daily.' },
    ok: 201,
    modelBacked: false,
  },
  {
    name: 'GET turns',
    method: 'GET',
    path: (s) => `/api/v1/${s.ctx}/sessions/s1/turns`,
    ok: 200,
    modelBacked: false,
  },
  {
    name: 'GET session context',
    method: 'GET',
    path: (s) => `/api/v1/${s.ctx}/sessions/s1/context`,
    ok: 200,
    modelBacked: false,
  },
  {
    name: 'POST chat',
    method: 'POST',
    path: (s) => `/api/v1/${s.ctx}/chat`,
    body: { message: 'What does Amara like?' },
    ok: 200,
    modelBacked: true,
  },
  {
    name: 'POST reflect',
    method: 'POST',
    path: (s) => `/api/v1/${s.ctx}/reflect`,
    body: { lens: ['*'] },
    ok: 200,
    modelBacked: true,
  },
  {
    name: 'POST consolidate',
    method: 'POST',
    path: (s) => `/api/v1/${s.ctx}/consolidate`,
    body: { dry_run: true },
    ok: 200,
    modelBacked: true,
  },
];

async function seed(ctx: string, blocked: boolean): Promise<Seed> {
  await createContext(ctx);
  const facts = await json<{ facts: { id: string }[] }>(
    await call(`/api/v1/${ctx}/facts/batch`, {
      body: { facts: [{ content: 'Amara lives in Nairobi.' }, { content: 'Amara is temporary.' }] },
    }),
    201,
  );
  await json(await call(`/api/v1/${ctx}/sessions`, { body: { id: 's1' } }), 201);
  await json(
    await call(`/api/v1/contexts/${ctx}`, {
      method: 'PATCH',
      body: { enforcement_blocked: blocked },
    }),
    200,
  );
  return { ctx, factId: facts.facts[0]?.id ?? '', deleteId: facts.facts[1]?.id ?? '' };
}

describe.each([
  { state: 'enforcement_blocked false', blocked: false },
  { state: 'enforcement_blocked true', blocked: true },
])('every endpoint with $state', ({ blocked }) => {
  const ctx = `models-budget-${blocked ? 'blocked' : 'open'}`;
  let s: Seed;

  it.each(ROWS)('$name', async (row) => {
    s ??= await seed(ctx, blocked);
    const res = await call(row.path(s), { method: row.method, body: row.body });
    const expected = blocked && row.modelBacked ? 429 : row.ok;
    const text = await res.text();
    expect(res.status, text).toBe(expected);
    if (expected === 429) {
      const problem = JSON.parse(text) as { type: string; retry_after: unknown; status: number };
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(problem.type).toMatch(/\/rate-limited$/);
      expect(problem.status).toBe(429);
      expect(problem).toHaveProperty('retry_after');
    }
  });
});

describe('a blocked Context', () => {
  it('still answers cache hits of chat and reflect, and says why the turn was not extracted', async () => {
    const ctx = 'models-budget-cache';
    await createContext(ctx);
    await json(
      await call(`/api/v1/${ctx}/facts`, { body: { content: 'Felix plays the banjo.' } }),
      201,
    );
    await json(await call(`/api/v1/${ctx}/sessions`, { body: { id: 's1' } }), 201);
    const chat = { message: 'Which instrument does Felix play?' };
    const first = await json<{ answer: string }>(
      await call(`/api/v1/${ctx}/chat`, { body: chat }),
      200,
    );
    await json(await call(`/api/v1/${ctx}/reflect`, { body: {} }), 200);
    await json(
      await call(`/api/v1/contexts/${ctx}`, {
        method: 'PATCH',
        body: { enforcement_blocked: true },
      }),
      200,
    );

    const again = await json<{ answer: string; cached: boolean }>(
      await call(`/api/v1/${ctx}/chat`, { body: chat }),
      200,
    );
    expect(again).toMatchObject({ cached: true, answer: first.answer });
    expect(
      (await json<{ cached: boolean }>(await call(`/api/v1/${ctx}/reflect`, { body: {} }), 200))
        .cached,
    ).toBe(true);
    expect((await call(`/api/v1/${ctx}/chat`, { body: { message: 'Anything new?' } })).status).toBe(
      429,
    );

    const turn = await json<{ extraction: { status: string; detail: string } }>(
      await call(`/api/v1/${ctx}/sessions/s1/turns`, {
        body: { role: 'user', content: 'I sold my banjo.' },
      }),
      201,
    );
    expect(turn.extraction.status).toBe('not_run');
    expect(turn.extraction.detail).toMatch(/enforcement_blocked/);
  });
});

describe('token accounting and the soft token_limit', () => {
  it('counts tokens on the Context and reports a breach without rejecting', async () => {
    const ctx = 'models-budget-soft';
    await createContext(ctx, { token_limit: 5 });
    await json(
      await call(`/api/v1/${ctx}/facts`, { body: { content: 'Priya speaks Greek.' } }),
      201,
    );
    type View = { usage: { llm_tokens: number } };
    const before = await json<View>(await call(`/api/v1/contexts/${ctx}`), 200);
    expect(before.usage.llm_tokens).toBe(0);

    const res = await call(`/api/v1/${ctx}/chat`, {
      body: { message: 'Which language does Priya speak?' },
    });
    const body = await json<{ usage: { total_tokens: number } }>(res, 200);
    expect(res.headers.get('x-token-budget')).toBe('exceeded');
    const after = await json<View>(await call(`/api/v1/contexts/${ctx}`), 200);
    expect(after.usage.llm_tokens).toBe(body.usage.total_tokens);

    // Over the limit, model-backed paths keep working (pay as you go).
    const next = await call(`/api/v1/${ctx}/reflect`, { body: {} });
    expect(next.status).toBe(200);
    expect(next.headers.get('x-token-budget')).toBe('exceeded');
  });

  it('POST /facts?infer=full reports the budget like the other model-backed paths', async () => {
    const ctx = 'models-budget-infer';
    await createContext(ctx, { token_limit: 30 });
    type View = { usage: { llm_tokens: number } };
    const first = await call(`/api/v1/${ctx}/facts?infer=full`, {
      body: { content: 'I live in Quito.', metadata: { speaker: 'Tomas' } },
    });
    await json(first, 201);
    const used = (await json<View>(await call(`/api/v1/contexts/${ctx}`), 200)).usage.llm_tokens;
    expect(used).toBeGreaterThan(0);
    expect(first.headers.get('x-token-usage')).toBe(String(used));
    expect(first.headers.get('x-token-limit')).toBe('30');
    expect(first.headers.get('x-model-provider')).toBe('local');
    expect(first.headers.get('x-token-budget')).toBe(used > 30 ? 'exceeded' : 'ok');

    // Keep writing until the soft limit is passed: still 201, now reported as exceeded.
    let last = first;
    for (let i = 0; i < 10 && last.headers.get('x-token-budget') !== 'exceeded'; i++) {
      last = await call(`/api/v1/${ctx}/facts?infer=full`, {
        body: {
          content: `I own ${i + 2} bicycles and I repair them often.`,
          metadata: { speaker: 'Tomas' },
        },
      });
      await json(last, 201);
    }
    expect(last.headers.get('x-token-budget')).toBe('exceeded');

    // A literal write is not model-backed and carries no budget header.
    const plain = await call(`/api/v1/${ctx}/facts`, { body: { content: 'Tomas drinks mate.' } });
    await json(plain, 201);
    expect(plain.headers.get('x-token-budget')).toBeNull();
  });

  it('reports ok while usage is under the limit', async () => {
    const ctx = 'models-budget-under';
    await createContext(ctx, { token_limit: 1_000_000 });
    const res = await call(`/api/v1/${ctx}/chat`, { body: { message: 'Hello?' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-token-budget')).toBe('ok');
  });
});
