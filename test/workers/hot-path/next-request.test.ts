import { describe, expect, it } from 'vitest';
import {
  ALL,
  call,
  createContext,
  createPrincipal,
  expectProblem,
  json,
  unique,
  type GrantsInput,
} from '../memory/helpers.ts';

// Issue 12: the Context's object caches keys and its Context row, so every control-plane write
// must reach it. Each case first uses the key (so the object holds it), changes D1 through the
// API, and expects the very next request to see the change.

interface Issued {
  id: string;
  key: string;
  principalId: string;
}

async function issue(
  contextId: string | null,
  grants: GrantsInput = ALL,
  kind: 'agent' | 'management' = 'agent',
): Promise<Issued> {
  const principalId = await createPrincipal(kind);
  const res = await call('POST', '/api/v1/keys', {
    body: { principal_id: principalId, context_id: contextId, grants },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const body = await json<{ id: string; key: string }>(res);
  return { id: body.id, key: body.key, principalId };
}

const listFacts = (ctx: string, key: string) => call('GET', `/api/v1/${ctx}/facts`, { key });

describe('control-plane writes take effect on the next data-plane request', () => {
  it('revoking a key: the next request with it is 401', async () => {
    const ctx = await createContext(unique('next-revoke'));
    const k = await issue(ctx);
    expect((await listFacts(ctx, k.key)).status).toBe(200);
    expect((await listFacts(ctx, k.key)).status).toBe(200);
    expect((await call('DELETE', `/api/v1/keys/${k.id}`)).status).toBe(204);
    const body = await expectProblem(await listFacts(ctx, k.key), 401, 'unauthorized');
    expect(body.detail).toContain('revoked');
  });

  it('deleting a principal: the next request with any of its keys is 401', async () => {
    const ctx = await createContext(unique('next-principal'));
    const k = await issue(ctx);
    expect((await listFacts(ctx, k.key)).status).toBe(200);
    expect((await call('DELETE', `/api/v1/principals/${k.principalId}`)).status).toBe(204);
    await expectProblem(await listFacts(ctx, k.key), 401, 'unauthorized');
    await expectProblem(await call('GET', `/api/v1/principals/${k.principalId}`), 404, 'not-found');
  });

  it('changing grants: the next request is checked against the new grants', async () => {
    const ctx = await createContext(unique('next-grants'));
    const k = await issue(ctx);
    const write = () =>
      call('POST', `/api/v1/${ctx}/facts`, { key: k.key, body: { content: 'Kim runs payroll.' } });
    expect((await write()).status).toBe(201);
    const patched = await call('PATCH', `/api/v1/keys/${k.id}`, {
      body: { grants: { 'memory:read': ['*'] } },
    });
    expect(patched.status, await patched.clone().text()).toBe(200);
    expect(await json<{ grants: Record<string, string[]> }>(patched)).toMatchObject({
      grants: { 'memory:read': ['*'], 'memory:write': [], 'memory:forget': [] },
    });
    await expectProblem(await write(), 403, 'forbidden');
    expect((await listFacts(ctx, k.key)).status).toBe(200);
  });

  it('changing the scope floor: the next request below it is 400', async () => {
    const ctx = await createContext(unique('next-floor'));
    const k = await issue(ctx);
    const read = () =>
      call('POST', `/api/v1/${ctx}/query`, {
        key: k.key,
        body: { query: 'payroll', mode: 'bm25', lens: ['team:eng/user:kim'] },
      });
    expect((await read()).status).toBe(200);
    expect(
      (await call('PATCH', `/api/v1/keys/${k.id}`, { body: { scope_floor: 'team:eng' } })).status,
    ).toBe(200);
    await expectProblem(await read(), 400, 'validation-error');
  });

  it('revoking an unbound management key cached in several Context objects reaches every one', async () => {
    const a = await createContext(unique('next-root-a'));
    const b = await createContext(unique('next-root-b'));
    const k = await issue(null, ALL, 'management');
    expect((await listFacts(a, k.key)).status).toBe(200);
    expect((await listFacts(b, k.key)).status).toBe(200);
    expect((await call('DELETE', `/api/v1/keys/${k.id}`)).status).toBe(204);
    await expectProblem(await listFacts(a, k.key), 401, 'unauthorized');
    await expectProblem(await listFacts(b, k.key), 401, 'unauthorized');
  });

  it('blocking a Context: the next model-backed request is 429, direct reads still answer', async () => {
    const ctx = await createContext(unique('next-block'));
    const k = await issue(ctx);
    const chat = (message: string) =>
      call('POST', `/api/v1/${ctx}/chat`, { key: k.key, body: { message } });
    expect((await chat('Who runs payroll?')).status).toBe(200);
    const patched = await call('PATCH', `/api/v1/contexts/${ctx}`, {
      body: { enforcement_blocked: true },
    });
    expect(patched.status).toBe(200);
    // A new question (a cached answer is a read-only hit, which a block does not refuse).
    await expectProblem(await chat('Who signs the invoices?'), 429, 'rate-limited');
    expect((await listFacts(ctx, k.key)).status).toBe(200);
  });

  it('deleting a Context: the next request is 404, and a Context created again under the id starts clean', async () => {
    const ctx = await createContext(unique('next-delete'));
    const k = await issue(ctx);
    expect(
      (await call('POST', `/api/v1/${ctx}/facts`, { key: k.key, body: { content: 'Old fact.' } }))
        .status,
    ).toBe(201);
    expect((await call('DELETE', `/api/v1/contexts/${ctx}`)).status).toBe(204);
    // The root key reaches every Context, so it sees the 404 rather than a 403 for a bound key.
    await expectProblem(await call('GET', `/api/v1/${ctx}/facts`), 404, 'context-not-found');
    // Its keys were revoked with it.
    await expectProblem(await listFacts(ctx, k.key), 401, 'unauthorized');
    await createContext(ctx);
    const fresh = await json<{ facts: unknown[] }>(await call('GET', `/api/v1/${ctx}/facts`));
    expect(fresh.facts).toEqual([]);
  });

  it('PATCH /keys/{id} validates its body and leaves the key unchanged on a bad one', async () => {
    const ctx = await createContext(unique('next-bad-patch'));
    const k = await issue(ctx);
    await expectProblem(
      await call('PATCH', `/api/v1/keys/${k.id}`, {
        body: { grants: { 'memory:read': ['not a scope!'] } },
      }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('PATCH', `/api/v1/keys/${k.id}`, { key: k.key, body: { scope_floor: null } }),
      403,
      'forbidden',
    );
    await expectProblem(
      await call('PATCH', '/api/v1/keys/key_missing', { body: { scope_floor: null } }),
      404,
      'not-found',
    );
    expect(
      (await call('POST', `/api/v1/${ctx}/facts`, { key: k.key, body: { content: 'Still here.' } }))
        .status,
    ).toBe(201);
  });
});
