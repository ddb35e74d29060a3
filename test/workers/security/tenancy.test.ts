import { describe, expect, it } from 'vitest';
import {
  ALL,
  call,
  createContext,
  createPrincipal,
  expectProblem,
  issueKey,
  json,
  unique,
} from '../memory/helpers.ts';

// Issue 15, attack 3: a management key bound to one Context must act only inside it.

interface Tenant {
  ctx: string;
  /** A management key bound to `ctx`. */
  mgmt: string;
}

async function tenant(): Promise<Tenant> {
  const ctx = await createContext(unique('tenant'));
  return { ctx, mgmt: await issueKey(ctx, ALL, { kind: 'management' }) };
}

async function principalAs(
  key: string,
  body: Record<string, unknown>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await call('POST', '/api/v1/principals', { key, body });
  return { status: res.status, body: await json(res) };
}

describe('tenancy: a Context-bound management key', () => {
  it('cannot create Contexts (no id squatting): 403, and nothing is created', async () => {
    const a = await tenant();
    const id = unique('squat');
    await expectProblem(
      await call('POST', '/api/v1/contexts', { key: a.mgmt, body: { id } }),
      403,
      'forbidden',
    );
    // The root key can still take the id: the refused call wrote nothing.
    expect((await call('POST', '/api/v1/contexts', { body: { id } })).status).toBe(201);
  });

  it('cannot read the migration state or dead letters, nor retry a dead letter', async () => {
    const a = await tenant();
    await expectProblem(await call('GET', '/api/v1/migrations', { key: a.mgmt }), 403, 'forbidden');
    await expectProblem(
      await call('POST', '/api/v1/migrations/dlq/dlq_x/retry', { key: a.mgmt }),
      403,
      'forbidden',
    );
    expect((await call('GET', '/api/v1/migrations')).status).toBe(200);
  });

  it('reads and changes only its own Context', async () => {
    const a = await tenant();
    const b = await tenant();
    expect((await call('GET', `/api/v1/contexts/${a.ctx}`, { key: a.mgmt })).status).toBe(200);
    const patched = await call('PATCH', `/api/v1/contexts/${a.ctx}`, {
      key: a.mgmt,
      body: { token_limit: 10 },
    });
    expect(patched.status).toBe(200);
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { token_limit: 1 }],
      ['DELETE', undefined],
    ] as const) {
      await expectProblem(
        await call(method, `/api/v1/contexts/${b.ctx}`, { key: a.mgmt, body }),
        403,
        'forbidden',
      );
    }
    // A Context that does not exist answers the same 403: no existence oracle.
    await expectProblem(
      await call('GET', `/api/v1/contexts/${unique('nope')}`, { key: a.mgmt }),
      403,
      'forbidden',
    );
    expect((await call('GET', `/api/v1/contexts/${b.ctx}`)).status).toBe(200);
  });

  it('cannot read another tenant’s principal by id: 404 like a missing one, nothing of it in the body', async () => {
    const a = await tenant();
    const b = await tenant();
    const secretName = unique('hr-bot-of-b');
    const made = await principalAs(b.mgmt, { kind: 'agent', display_name: secretName });
    expect(made.status).toBe(201);
    expect(made.body.owner_context_id).toBe(b.ctx);
    const id = String(made.body.id);
    const res = await call('GET', `/api/v1/principals/${id}`, { key: a.mgmt });
    const text = await res.clone().text();
    await expectProblem(res, 404, 'not-found');
    expect(text).not.toContain(secretName);
    expect(text).not.toContain(b.ctx);
    // Its own tenant and the root key see it.
    expect((await call('GET', `/api/v1/principals/${id}`, { key: b.mgmt })).status).toBe(200);
    expect((await call('GET', `/api/v1/principals/${id}`)).status).toBe(200);
  });

  it('sees a root-made principal only once it holds a key in the bound Context', async () => {
    const a = await tenant();
    const rootPrincipal = await createPrincipal('agent');
    expect((await call('GET', `/api/v1/principals/${rootPrincipal}`, { key: a.mgmt })).status).toBe(
      404,
    );
    const issued = await call('POST', '/api/v1/keys', {
      body: { principal_id: rootPrincipal, context_id: a.ctx, grants: { 'memory:read': ['*'] } },
    });
    expect(issued.status).toBe(201);
    const seen = await call('GET', `/api/v1/principals/${rootPrincipal}`, { key: a.mgmt });
    expect(seen.status).toBe(200);
    expect(await json(seen)).toMatchObject({ id: rootPrincipal, owner_context_id: null });
  });

  it('external_id create-or-get never returns another tenant’s principal', async () => {
    const a = await tenant();
    const b = await tenant();
    const ext = unique('crm-42');
    const theirs = await principalAs(b.mgmt, {
      kind: 'agent',
      display_name: unique('b-name'),
      external_id: ext,
    });
    expect(theirs.status).toBe(201);
    const mine = await principalAs(a.mgmt, {
      kind: 'agent',
      display_name: unique('a-name'),
      external_id: ext,
    });
    // A fresh principal of tenant A, not B's: same external id, different owner.
    expect(mine.status).toBe(201);
    expect(mine.body.id).not.toBe(theirs.body.id);
    expect(mine.body.owner_context_id).toBe(a.ctx);
    const again = await principalAs(a.mgmt, {
      kind: 'agent',
      display_name: unique('a-other'),
      external_id: ext,
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(mine.body.id);
  });

  it('a display name taken in another tenant is no conflict, and a 409 names nothing', async () => {
    const a = await tenant();
    const b = await tenant();
    const name = unique('support-bot');
    expect((await principalAs(b.mgmt, { kind: 'agent', display_name: name })).status).toBe(201);
    // Another tenant's name does not collide, so a 409 cannot confirm it exists.
    expect((await principalAs(a.mgmt, { kind: 'agent', display_name: name })).status).toBe(201);
    const dup = await call('POST', '/api/v1/principals', {
      key: a.mgmt,
      body: { kind: 'agent', display_name: name },
    });
    const text = await dup.clone().text();
    await expectProblem(dup, 409, 'conflict');
    expect(text).not.toContain(name);
    expect(text).not.toMatch(/principal_[A-Za-z0-9]/);
  });

  it('cannot mint a key in its Context for another tenant’s principal', async () => {
    const a = await tenant();
    const b = await tenant();
    const theirs = await principalAs(b.mgmt, { kind: 'agent', display_name: unique('b-agent') });
    const res = await call('POST', '/api/v1/keys', {
      key: a.mgmt,
      body: { principal_id: theirs.body.id, context_id: a.ctx, grants: ALL },
    });
    await expectProblem(res, 404, 'not-found');
    // Its own principals, yes.
    const mine = await principalAs(a.mgmt, { kind: 'agent', display_name: unique('a-agent') });
    const ok = await call('POST', '/api/v1/keys', {
      key: a.mgmt,
      body: { principal_id: mine.body.id, context_id: a.ctx, grants: ALL },
    });
    expect(ok.status).toBe(201);
    const agentKey = (await json<{ key: string }>(ok)).key;
    expect((await call('GET', `/api/v1/${a.ctx}/facts`, { key: agentKey })).status).toBe(200);
    // ...and never in another Context.
    await expectProblem(
      await call('POST', '/api/v1/keys', {
        key: a.mgmt,
        body: { principal_id: mine.body.id, context_id: b.ctx, grants: ALL },
      }),
      403,
      'forbidden',
    );
  });

  it('cannot revoke another Context’s key: 404 like a missing key, and the key keeps working', async () => {
    const a = await tenant();
    const b = await tenant();
    const principal = await principalAs(b.mgmt, { kind: 'agent', display_name: unique('b-k') });
    const issued = await call('POST', '/api/v1/keys', {
      key: b.mgmt,
      body: { principal_id: principal.body.id, context_id: b.ctx, grants: ALL },
    });
    const { id, key } = await json<{ id: string; key: string }>(issued);
    await expectProblem(
      await call('DELETE', `/api/v1/keys/${id}`, { key: a.mgmt }),
      404,
      'not-found',
    );
    expect((await call('GET', `/api/v1/${b.ctx}/facts`, { key })).status).toBe(200);
    expect((await call('DELETE', `/api/v1/keys/${id}`, { key: b.mgmt })).status).toBe(204);
    expect((await call('GET', `/api/v1/${b.ctx}/facts`, { key })).status).toBe(401);
  });
});

describe('tenancy: unbound (root) management keys', () => {
  it('a root key issues one for a management principal; it acts deployment-wide until revoked', async () => {
    const admin = await createPrincipal('management');
    const issued = await call('POST', '/api/v1/keys', {
      body: { principal_id: admin, context_id: null, grants: ALL },
    });
    expect(issued.status).toBe(201);
    const { id, key, context_id } = await json<{ id: string; key: string; context_id: null }>(
      issued,
    );
    expect(context_id).toBeNull();
    const ctx = unique('by-root-key');
    expect((await call('POST', '/api/v1/contexts', { key, body: { id: ctx } })).status).toBe(201);
    expect((await call('GET', '/api/v1/migrations', { key })).status).toBe(200);
    expect((await call('GET', `/api/v1/${ctx}/facts`, { key })).status).toBe(200);
    expect((await call('DELETE', `/api/v1/keys/${id}`)).status).toBe(204);
    await expectProblem(await call('GET', '/api/v1/migrations', { key }), 401, 'unauthorized');
  });

  it('a bound key cannot issue one, and agents and supervisors never hold one', async () => {
    const a = await tenant();
    const mine = await principalAs(a.mgmt, { kind: 'management', display_name: unique('m') });
    await expectProblem(
      await call('POST', '/api/v1/keys', {
        key: a.mgmt,
        body: { principal_id: mine.body.id, context_id: null, grants: ALL },
      }),
      403,
      'forbidden',
    );
    for (const kind of ['agent', 'supervisor'] as const) {
      await expectProblem(
        await call('POST', '/api/v1/keys', {
          body: { principal_id: await createPrincipal(kind), context_id: null, grants: ALL },
        }),
        400,
        'validation-error',
      );
    }
  });
});
