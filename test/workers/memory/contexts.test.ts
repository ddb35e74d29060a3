import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import {
  call,
  createContext,
  expectProblem,
  issueKey,
  json,
  setup,
  unique,
  writeFact,
} from './helpers.ts';

interface ContextBody {
  id: string;
  schema_version: number;
  enforcement_blocked: boolean;
  token_limit: number | null;
  namespace: string | null;
  max_upload_bytes: number;
  created_at: string;
  updated_at: string;
  usage: { facts: number; documents: number };
}

describe('POST /api/v1/contexts', () => {
  it('creates a Context at the latest schema version with every field', async () => {
    const id = unique('create');
    const res = await call('POST', '/api/v1/contexts', {
      body: { id, token_limit: 5000, namespace: 'acme' },
    });
    expect(res.status).toBe(201);
    const body = await json<ContextBody>(res);
    expect(body).toMatchObject({
      id,
      enforcement_blocked: false,
      token_limit: 5000,
      namespace: 'acme',
    });
    expect(body.schema_version).toBeGreaterThanOrEqual(1);
    expect(Date.parse(body.created_at)).not.toBeNaN();
    expect(body.usage.facts).toBe(0);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers 409 conflict for a duplicate id', async () => {
    const id = await createContext();
    await expectProblem(await call('POST', '/api/v1/contexts', { body: { id } }), 409, 'conflict');
  });

  it('refuses the reserved internal namespace with 422 and stores nothing', async () => {
    const id = unique('reserved');
    await expectProblem(
      await call('POST', '/api/v1/contexts', { body: { id, namespace: 'internal' } }),
      422,
      'unprocessable',
    );
    expect(
      await env.DB.prepare('SELECT id FROM contexts WHERE id = ?').bind(id).first(),
    ).toBeNull();
  });

  it('rejects malformed JSON, wrong types and bad ids with 400', async () => {
    await expectProblem(
      await call('POST', '/api/v1/contexts', { rawBody: '{"id":' }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', '/api/v1/contexts', { body: { id: 42 } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', '/api/v1/contexts', { body: { id: 'has space' } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', '/api/v1/contexts', { body: { id: 'keys' } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', '/api/v1/contexts', { body: { id: 'x'.repeat(200) } }),
      400,
      'validation-error',
    );
  });

  it('needs a key (401) and a management key (403)', async () => {
    await expectProblem(
      await call('POST', '/api/v1/contexts', { key: null, body: { id: unique('x') } }),
      401,
      'unauthorized',
    );
    await expectProblem(
      await call('POST', '/api/v1/contexts', { key: 'mem_agent_short', body: { id: unique('x') } }),
      401,
      'unauthorized',
    );
    const { key } = await setup();
    await expectProblem(
      await call('POST', '/api/v1/contexts', { key, body: { id: unique('x') } }),
      403,
      'forbidden',
    );
  });
});

describe('GET/PATCH/DELETE /api/v1/contexts/{id}', () => {
  it('gets a Context with its usage', async () => {
    const { ctx, key } = await setup();
    await writeFact(ctx, key, 'The sky is blue');
    const res = await call('GET', `/api/v1/contexts/${ctx}`, { key });
    expect(res.status).toBe(200);
    expect((await json<ContextBody>(res)).usage.facts).toBe(1);
  });

  it('counts uploaded documents in its usage, whatever their status', async () => {
    const { ctx, key } = await setup();
    const before = await json<ContextBody>(await call('GET', `/api/v1/contexts/${ctx}`, { key }));
    expect(before.usage.documents).toBe(0);
    const upload = await call('POST', `/api/v1/${ctx}/documents`, {
      key,
      headers: { 'content-type': 'text/plain' },
      rawBody: 'Quarterly notes: the billing migration ships in May.',
    });
    expect(upload.status).toBe(202);
    const after = await json<ContextBody>(await call('GET', `/api/v1/contexts/${ctx}`, { key }));
    expect(after.usage.documents).toBe(1);
    expect(after.usage.facts).toBe(0);
  });

  it('answers 404 context-not-found for an unknown Context', async () => {
    await expectProblem(
      await call('GET', `/api/v1/contexts/${unique('missing')}`),
      404,
      'context-not-found',
    );
  });

  it('updates token_limit, enforcement_blocked and namespace; internal is 422', async () => {
    const ctx = await createContext();
    const res = await call('PATCH', `/api/v1/contexts/${ctx}`, {
      body: { token_limit: 10, enforcement_blocked: true, namespace: 'team-a' },
    });
    expect(res.status).toBe(200);
    expect(await json<ContextBody>(res)).toMatchObject({
      token_limit: 10,
      enforcement_blocked: true,
      namespace: 'team-a',
    });
    await expectProblem(
      await call('PATCH', `/api/v1/contexts/${ctx}`, { body: { namespace: 'INTERNAL' } }),
      422,
      'unprocessable',
    );
    const after = await json<ContextBody>(await call('GET', `/api/v1/contexts/${ctx}`));
    expect(after.namespace).toBe('team-a');
    await expectProblem(
      await call('PATCH', `/api/v1/contexts/${ctx}`, { body: { token_limit: 'many' } }),
      400,
      'validation-error',
    );
  });

  it('sets max_upload_bytes, shows the effective limit, and null returns to the default', async () => {
    const ctx = await createContext();
    const fallback = Number(env.MAX_UPLOAD_BYTES);
    const initial = await json<ContextBody>(await call('GET', `/api/v1/contexts/${ctx}`));
    expect(initial.max_upload_bytes).toBe(fallback);

    const set = await call('PATCH', `/api/v1/contexts/${ctx}`, {
      body: { max_upload_bytes: 1024 },
    });
    expect(set.status).toBe(200);
    expect((await json<ContextBody>(set)).max_upload_bytes).toBe(1024);
    const stored = await env.DB.prepare('SELECT max_upload_bytes FROM contexts WHERE id = ?')
      .bind(ctx)
      .first<{ max_upload_bytes: number | null }>();
    expect(stored?.max_upload_bytes).toBe(1024);

    // Another field alone leaves the limit as it was.
    const other = await call('PATCH', `/api/v1/contexts/${ctx}`, { body: { token_limit: 7 } });
    expect((await json<ContextBody>(other)).max_upload_bytes).toBe(1024);

    // Exactly 1 GiB is the ceiling.
    const gib = 1024 * 1024 * 1024;
    const top = await call('PATCH', `/api/v1/contexts/${ctx}`, { body: { max_upload_bytes: gib } });
    expect((await json<ContextBody>(top)).max_upload_bytes).toBe(gib);

    const cleared = await call('PATCH', `/api/v1/contexts/${ctx}`, {
      body: { max_upload_bytes: null },
    });
    expect((await json<ContextBody>(cleared)).max_upload_bytes).toBe(fallback);
    const after = await env.DB.prepare('SELECT max_upload_bytes FROM contexts WHERE id = ?')
      .bind(ctx)
      .first<{ max_upload_bytes: number | null }>();
    expect(after?.max_upload_bytes).toBeNull();
  });

  it('refuses a bad max_upload_bytes with a 400 naming the field and writes nothing', async () => {
    const ctx = await createContext();
    await call('PATCH', `/api/v1/contexts/${ctx}`, { body: { max_upload_bytes: 2048 } });
    for (const bad of [0, -5, 1.5, 1024 * 1024 * 1024 + 1, '100', true]) {
      const problem = await expectProblem(
        await call('PATCH', `/api/v1/contexts/${ctx}`, {
          body: { max_upload_bytes: bad, token_limit: 99 },
        }),
        400,
        'validation-error',
      );
      expect(problem.detail).toContain('max_upload_bytes');
    }
    const row = await env.DB.prepare(
      'SELECT max_upload_bytes, token_limit FROM contexts WHERE id = ?',
    )
      .bind(ctx)
      .first<{ max_upload_bytes: number | null; token_limit: number | null }>();
    expect(row).toEqual({ max_upload_bytes: 2048, token_limit: null });
  });

  it('forbids an agent key from setting max_upload_bytes', async () => {
    const { ctx, key } = await setup();
    await expectProblem(
      await call('PATCH', `/api/v1/contexts/${ctx}`, { key, body: { max_upload_bytes: 10 } }),
      403,
      'forbidden',
    );
    const row = await env.DB.prepare('SELECT max_upload_bytes FROM contexts WHERE id = ?')
      .bind(ctx)
      .first<{ max_upload_bytes: number | null }>();
    expect(row?.max_upload_bytes).toBeNull();
  });

  it('forbids an agent key from updating or deleting, and a key of another Context from reading', async () => {
    const { ctx, key } = await setup();
    await expectProblem(
      await call('PATCH', `/api/v1/contexts/${ctx}`, { key, body: { token_limit: 1 } }),
      403,
      'forbidden',
    );
    await expectProblem(await call('DELETE', `/api/v1/contexts/${ctx}`, { key }), 403, 'forbidden');
    const other = await setup();
    await expectProblem(
      await call('GET', `/api/v1/contexts/${ctx}`, { key: other.key }),
      403,
      'forbidden',
    );
  });

  it('deletes the Context, its whole database and its keys', async () => {
    const { ctx, key } = await setup();
    await writeFact(ctx, key, 'to be removed');
    expect((await call('DELETE', `/api/v1/contexts/${ctx}`)).status).toBe(204);
    await expectProblem(await call('GET', `/api/v1/contexts/${ctx}`), 404, 'context-not-found');
    await expectProblem(await call('GET', `/api/v1/${ctx}/facts`, { key }), 401, 'unauthorized');
    // Re-creating the id starts from an empty database.
    await createContext(ctx);
    const fresh = await json<ContextBody>(await call('GET', `/api/v1/contexts/${ctx}`));
    expect(fresh.usage.facts).toBe(0);
  });

  it('a management key issued for one Context cannot touch another', async () => {
    const a = await createContext();
    const b = await createContext();
    const mgmt = await issueKey(a, {}, { kind: 'management' });
    expect((await call('GET', `/api/v1/contexts/${a}`, { key: mgmt })).status).toBe(200);
    await expectProblem(
      await call('DELETE', `/api/v1/contexts/${b}`, { key: mgmt }),
      403,
      'forbidden',
    );
  });
});
