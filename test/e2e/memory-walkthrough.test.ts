import { describe, expect, inject, it } from 'vitest';

// The "done when" of the memory core issue, walked as a new user would from the README against
// the real `wrangler dev`: a management key creates a Context, a principal and an agent key with
// grants; the agent writes facts (single, batch with an Idempotency-Key replay), queries them in
// all four modes, and meets every error of the spec's status table these routes can produce.

const base = inject('baseUrl');
const management = inject('bootstrapKey');
// wrangler dev keeps its state between runs: names unique to this run.
const run = crypto.randomUUID().slice(0, 8);
const ctx = `walkthrough-${run}`;

interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  retry_after?: number | null;
}

function api(
  method: string,
  path: string,
  options: {
    key?: string | null;
    body?: unknown;
    raw?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Response> {
  const headers = new Headers(options.headers);
  const key = options.key === undefined ? management : options.key;
  if (key !== null) headers.set('authorization', key.startsWith('Bearer') ? key : `Bearer ${key}`);
  const body =
    options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers.set('content-type', 'application/json');
  return fetch(`${base}/api/v1${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
}

async function ok<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** An RFC 9457 problem body: type ending with the slug, title, status, detail, instance. */
async function problem(res: Response, status: number, slug: string): Promise<Problem> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  const body = JSON.parse(text) as Problem;
  expect(body.type.endsWith(`/${slug}`), body.type).toBe(true);
  expect(body.title.length).toBeGreaterThan(0);
  expect(body.status).toBe(status);
  expect(body.detail.length).toBeGreaterThan(0);
  expect(body.instance.startsWith('/api/v1/')).toBe(true);
  return body;
}

describe('memory service walkthrough (issue 3 "done when")', () => {
  let agent = '';
  let floored = '';
  const written: string[] = [];

  it('a management key creates a Context, a principal and an agent key with grants', async () => {
    const context = await ok<{ id: string; schema_version: number; enforcement_blocked: boolean }>(
      await api('POST', '/contexts', { body: { id: ctx, token_limit: 100_000 } }),
      201,
    );
    expect(context).toMatchObject({ id: ctx, enforcement_blocked: false });
    expect(context.schema_version).toBeGreaterThan(0);

    const principal = await ok<{ id: string; kind: string }>(
      await api('POST', '/principals', {
        body: { kind: 'agent', display_name: `support-bot-${run}` },
      }),
      201,
    );
    expect(principal.kind).toBe('agent');
    const issued = await ok<{ key: string; grants: Record<string, string[]> }>(
      await api('POST', '/keys', {
        body: {
          principal_id: principal.id,
          context_id: ctx,
          grants: {
            'memory:read': ['team:support'],
            'memory:write': ['team:support'],
            'memory:forget': ['team:support'],
          },
        },
      }),
      201,
    );
    expect(issued.key).toMatch(/^mem_agent_/);
    agent = issued.key;

    const reader = await ok<{ id: string }>(
      await api('POST', '/principals', {
        body: { kind: 'agent', display_name: `floored-bot-${run}` },
      }),
      201,
    );
    floored = (
      await ok<{ key: string }>(
        await api('POST', '/keys', {
          body: {
            principal_id: reader.id,
            context_id: ctx,
            grants: { 'memory:read': ['team:support'] },
            scope_floor: 'team:support',
          },
        }),
        201,
      )
    ).key;
  });

  it('the agent writes a fact, then a batch, and an Idempotency-Key replay returns the stored response', async () => {
    const single = await ok<{ facts: { id: string; content: string; scopes: string[] }[] }>(
      await api('POST', `/${ctx}/facts`, {
        key: agent,
        body: {
          content: 'Marta is the billing contact for Acme.',
          scopes: ['team:support/account:acme'],
        },
      }),
      201,
    );
    expect(single.facts[0]).toMatchObject({ scopes: ['team:support/account:acme'] });
    written.push(...single.facts.map((f) => f.id));

    const batch = {
      facts: [
        { content: 'Acme pays invoices by bank transfer.', scopes: ['team:support/account:acme'] },
        { content: 'Acme support hours are 9 to 17 CET.', scopes: ['team:support'] },
        { content: '"Globex" renewed its plan in March.', scopes: ['team:support'] },
      ],
    };
    const headers = { 'idempotency-key': `batch-${run}` };
    const first = await api('POST', `/${ctx}/facts/batch`, { key: agent, body: batch, headers });
    const stored = await ok<{ facts: { id: string }[] }>(first, 201);
    expect(stored.facts).toHaveLength(3);
    written.push(...stored.facts.map((f) => f.id));

    const replay = await api('POST', `/${ctx}/facts/batch`, { key: agent, body: batch, headers });
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(await ok<{ facts: { id: string }[] }>(replay, 201)).toEqual(stored);

    const listed = await ok<{ facts: { id: string }[] }>(
      await api('GET', `/${ctx}/facts?limit=100`, { key: agent }),
      200,
    );
    expect(listed.facts.map((f) => f.id).sort()).toEqual([...written].sort());
  });

  it.each(['vector', 'bm25', 'hybrid', 'hybrid_graph'])(
    'queries in %s mode find the billing contact first',
    async (mode) => {
      const body = await ok<{
        mode: string;
        results: { id: string; kind: string; content: string; score: number; scopes: string[] }[];
      }>(
        await api('POST', `/${ctx}/query`, {
          key: agent,
          body: { query: 'Who is the billing contact for Acme?', mode, k: 3 },
        }),
        200,
      );
      expect(body.mode).toBe(mode);
      expect(body.results[0]).toMatchObject({
        id: written[0],
        kind: 'fact',
        content: 'Marta is the billing contact for Acme.',
      });
      expect(body.results.length).toBeLessThanOrEqual(3);
    },
  );

  it('400: an unknown mode names the allowed values; a lens below the scope floor', async () => {
    const bad = await problem(
      await api('POST', `/${ctx}/query`, { key: agent, body: { query: 'acme', mode: 'fuzzy' } }),
      400,
      'validation-error',
    );
    for (const mode of ['vector', 'bm25', 'hybrid', 'hybrid_graph'])
      expect(bad.detail).toContain(mode);

    const floor = await problem(
      await api('POST', `/${ctx}/query`, {
        key: floored,
        body: { query: 'acme', lens: ['team:support/account:acme'] },
      }),
      400,
      'validation-error',
    );
    expect(floor.detail).toMatch(/floor/i);
  });

  it('401: a missing and a malformed key', async () => {
    await problem(await api('GET', `/${ctx}/facts`, { key: null }), 401, 'unauthorized');
    await problem(
      await api('GET', `/${ctx}/facts`, { key: 'Bearer not-a-memory-key' }),
      401,
      'unauthorized',
    );
  });

  it('403: an agent key on a management operation, and a lens outside its grant', async () => {
    await problem(
      await api('POST', '/contexts', { key: agent, body: { id: `agent-made-${run}` } }),
      403,
      'forbidden',
    );
    await problem(
      await api('POST', `/${ctx}/query`, {
        key: agent,
        body: { query: 'pipeline', lens: ['team:sales'] },
      }),
      403,
      'forbidden',
    );
  });

  it('404: an unknown fact, and a Context that does not exist', async () => {
    await problem(
      await api('GET', `/${ctx}/facts/fact_doesnotexist`, { key: agent }),
      404,
      'not-found',
    );
    await problem(
      await api('POST', `/nowhere-${run}/query`, { body: { query: 'anything' } }),
      404,
      'context-not-found',
    );
  });

  it('409: a duplicate Context, and an Idempotency-Key reused with another body', async () => {
    await problem(await api('POST', '/contexts', { body: { id: ctx } }), 409, 'conflict');
    const headers = { 'idempotency-key': `single-${run}` };
    await ok(
      await api('POST', `/${ctx}/facts`, {
        key: agent,
        body: { content: 'Acme uses Slack.', scopes: ['team:support'] },
        headers,
      }),
      201,
    );
    await problem(
      await api('POST', `/${ctx}/facts`, {
        key: agent,
        body: { content: 'Acme uses Teams.', scopes: ['team:support'] },
        headers,
      }),
      409,
      'conflict',
    );
    // Nothing of the refused body was stored.
    const hits = await ok<{ results: { content: string }[] }>(
      await api('POST', `/${ctx}/query`, { key: agent, body: { query: 'Teams', mode: 'bm25' } }),
      200,
    );
    expect(hits.results.map((r) => r.content)).not.toContain('Acme uses Teams.');
  });

  it('422: the reserved internal namespace', async () => {
    await problem(
      await api('PATCH', `/contexts/${ctx}`, { body: { namespace: 'internal' } }),
      422,
      'unprocessable',
    );
  });

  it('429: a blocked Context refuses /chat with retry_after, while queries keep working', async () => {
    await ok(await api('PATCH', `/contexts/${ctx}`, { body: { enforcement_blocked: true } }), 200);
    const res = await api('POST', `/${ctx}/chat`, {
      key: agent,
      body: { message: 'Who is the billing contact for Acme?' },
    });
    const retryAfter = res.headers.get('retry-after');
    const body = await problem(res, 429, 'rate-limited');
    // A block has no known end (an operator or the organisation's credit lifts it): the body
    // carries `retry_after: null` (the spec's "null or value") and no Retry-After header is sent.
    expect(body).toHaveProperty('retry_after', null);
    expect(retryAfter).toBeNull();
    expect(body.detail).toContain('enforcement_blocked');
    await ok(
      await api('POST', `/${ctx}/query`, { key: agent, body: { query: 'billing contact' } }),
      200,
    );
    await ok(await api('PATCH', `/contexts/${ctx}`, { body: { enforcement_blocked: false } }), 200);
  });

  it('cleans up: deleting the Context removes it', async () => {
    expect((await api('DELETE', `/contexts/${ctx}`)).status).toBe(204);
    await problem(
      await api('POST', `/${ctx}/query`, { body: { query: 'billing' } }),
      404,
      'context-not-found',
    );
  });
});
