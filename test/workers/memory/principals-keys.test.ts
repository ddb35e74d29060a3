import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import {
  call,
  createContext,
  createPrincipal,
  expectProblem,
  json,
  setup,
  unique,
} from './helpers.ts';

describe('POST /api/v1/principals', () => {
  it('creates a principal of each kind', async () => {
    for (const kind of ['agent', 'supervisor', 'management']) {
      const res = await call('POST', '/api/v1/principals', {
        body: { kind, display_name: unique(kind) },
      });
      expect(res.status).toBe(201);
      expect(await json(res)).toMatchObject({ kind, external_id: null });
    }
  });

  it('display_name is unique on create (409)', async () => {
    const name = unique('dup');
    expect(
      (await call('POST', '/api/v1/principals', { body: { kind: 'agent', display_name: name } }))
        .status,
    ).toBe(201);
    await expectProblem(
      await call('POST', '/api/v1/principals', { body: { kind: 'agent', display_name: name } }),
      409,
      'conflict',
    );
  });

  it('external_id is create-or-get (200 with the existing one)', async () => {
    const ext = unique('ext');
    const first = await call('POST', '/api/v1/principals', {
      body: { kind: 'agent', display_name: unique('a'), external_id: ext },
    });
    expect(first.status).toBe(201);
    const again = await call('POST', '/api/v1/principals', {
      body: { kind: 'agent', display_name: unique('b'), external_id: ext },
    });
    expect(again.status).toBe(200);
    expect((await json<{ id: string }>(again)).id).toBe((await json<{ id: string }>(first)).id);
  });

  it('rejects bad kinds and missing names; needs a management key', async () => {
    await expectProblem(
      await call('POST', '/api/v1/principals', { body: { kind: 'robot', display_name: 'x' } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', '/api/v1/principals', { body: { kind: 'agent' } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', '/api/v1/principals', {
        key: null,
        body: { kind: 'agent', display_name: 'x' },
      }),
      401,
      'unauthorized',
    );
    const { key } = await setup();
    await expectProblem(
      await call('POST', '/api/v1/principals', {
        key,
        body: { kind: 'agent', display_name: unique('x') },
      }),
      403,
      'forbidden',
    );
  });
});

describe('POST /api/v1/keys and DELETE /api/v1/keys/{id}', () => {
  it('issues a key shown once, stores only its SHA-256 hash, and revokes it', async () => {
    const ctx = await createContext();
    const principal = await createPrincipal('agent');
    const res = await call('POST', '/api/v1/keys', {
      body: {
        principal_id: principal,
        context_id: ctx,
        grants: { 'memory:read': ['team:eng'] },
        scope_floor: 'team:eng',
      },
    });
    expect(res.status).toBe(201);
    const issued = await json<{
      id: string;
      key: string;
      grants: Record<string, string[]>;
      scope_floor: string;
    }>(res);
    expect(issued.key).toMatch(/^mem_agent_[A-Za-z0-9_-]{20,}$/);
    expect(issued.grants).toEqual({
      'memory:read': ['team:eng'],
      'memory:write': [],
      'memory:forget': [],
    });
    const row = await env.DB.prepare('SELECT * FROM api_keys WHERE id = ?')
      .bind(issued.id)
      .first<Record<string, unknown>>();
    expect(JSON.stringify(row)).not.toContain(issued.key);
    expect(row?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await call('GET', `/api/v1/${ctx}/facts`, { key: issued.key })).status).toBe(200);
    expect((await call('DELETE', `/api/v1/keys/${issued.id}`)).status).toBe(204);
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/facts`, { key: issued.key }),
      401,
      'unauthorized',
    );
    await expectProblem(await call('DELETE', '/api/v1/keys/key_nope'), 404, 'not-found');
  });

  it('validates grants, floors, principals and Contexts', async () => {
    const ctx = await createContext();
    const principal = await createPrincipal('agent');
    const post = (body: unknown) => call('POST', '/api/v1/keys', { body });
    await expectProblem(
      await post({
        principal_id: principal,
        context_id: ctx,
        grants: { 'memory:read': ['bad path'] },
      }),
      400,
      'validation-error',
    );
    await expectProblem(
      await post({
        principal_id: principal,
        context_id: ctx,
        grants: { 'memory:read': 'team:eng' },
      }),
      400,
      'validation-error',
    );
    await expectProblem(
      await post({ principal_id: principal, context_id: ctx, grants: {}, scope_floor: 'a b' }),
      400,
      'validation-error',
    );
    await expectProblem(
      await post({ principal_id: 'principal_nope', context_id: ctx, grants: {} }),
      404,
      'not-found',
    );
    await expectProblem(
      await post({ principal_id: principal, context_id: unique('missing'), grants: {} }),
      404,
      'context-not-found',
    );
    await expectProblem(await post({ context_id: ctx, grants: {} }), 400, 'validation-error');
    expect(
      (
        await env.DB.prepare('SELECT COUNT(*) AS n FROM api_keys WHERE principal_id = ?')
          .bind(principal)
          .first<{ n: number }>()
      )?.n,
    ).toBe(0);
  });

  it('an agent key cannot issue or revoke keys', async () => {
    const { ctx, key } = await setup();
    const principal = await createPrincipal('agent');
    await expectProblem(
      await call('POST', '/api/v1/keys', {
        key,
        body: { principal_id: principal, context_id: ctx, grants: {} },
      }),
      403,
      'forbidden',
    );
    await expectProblem(await call('DELETE', '/api/v1/keys/anything', { key }), 403, 'forbidden');
  });

  it('401 for malformed, unknown and wrong-kind keys', async () => {
    const { ctx } = await setup();
    for (const bad of [
      'nope',
      'mem_robot_aaaaaaaaaaaaaaaaaaaaaaaa',
      'mem_agent_short',
      `mem_agent_${'a'.repeat(40)}`,
    ]) {
      await expectProblem(
        await call('GET', `/api/v1/${ctx}/facts`, { key: bad }),
        401,
        'unauthorized',
      );
    }
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/facts`, {
        key: null,
        headers: { authorization: 'Basic abc' },
      }),
      401,
      'unauthorized',
    );
  });

  it('a management key bound to one Context cannot issue keys for another', async () => {
    const a = await createContext();
    const b = await createContext();
    const mgmtPrincipal = await createPrincipal('management');
    const issued = await json<{ key: string }>(
      await call('POST', '/api/v1/keys', {
        body: { principal_id: mgmtPrincipal, context_id: a, grants: {} },
      }),
    );
    // The agent belongs to the bound key's tenant (it created it): docs/security.md.
    const made = await call('POST', '/api/v1/principals', {
      key: issued.key,
      body: { kind: 'agent', display_name: unique('agent') },
    });
    const agent = (await json<{ id: string }>(made)).id;
    const ok = await call('POST', '/api/v1/keys', {
      key: issued.key,
      body: { principal_id: agent, context_id: a, grants: {} },
    });
    expect(ok.status).toBe(201);
    await expectProblem(
      await call('POST', '/api/v1/keys', {
        key: issued.key,
        body: { principal_id: agent, context_id: b, grants: {} },
      }),
      403,
      'forbidden',
    );
  });

  it('a secret whose kind differs from its principal’s kind is 401', async () => {
    const ctx = await createContext();
    const agent = await createPrincipal('agent');
    const issued = await json<{ id: string; key: string }>(
      await call('POST', '/api/v1/keys', {
        body: { principal_id: agent, context_id: ctx, grants: { 'memory:read': ['*'] } },
      }),
    );
    // Re-point the stored hash at the same random part under another kind prefix.
    const forged = issued.key.replace('mem_agent_', 'mem_management_');
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(forged));
    const hash = [...new Uint8Array(digest)].map((x) => x.toString(16).padStart(2, '0')).join('');
    await env.DB.prepare('UPDATE api_keys SET hash = ? WHERE id = ?').bind(hash, issued.id).run();
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/facts`, { key: forged }),
      401,
      'unauthorized',
    );
  });
});
