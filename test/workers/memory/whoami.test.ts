import { describe, expect, it } from 'vitest';
import { call, createContext, expectProblem, issueKey, json } from './helpers.ts';

// GET /api/v1/whoami: any valid key reads back what it is and may do (the console's sign-in).

describe('GET /api/v1/whoami', () => {
  it('names the bootstrap key as root, reaching every Context', async () => {
    const res = await call('GET', '/api/v1/whoami');
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      key_id: 'bootstrap',
      principal: { id: 'bootstrap', kind: 'management', display_name: 'bootstrap' },
      context_id: null,
      root: true,
      grants: { 'memory:read': ['*'], 'memory:write': ['*'], 'memory:forget': ['*'] },
      scope_floor: null,
      read_lens: [['*']],
    });
  });

  it('tells an agent key its Context, grants, floor and read lens', async () => {
    const ctx = await createContext();
    const key = await issueKey(
      ctx,
      { 'memory:read': ['team:eng', 'team:ops'], 'memory:write': ['team:eng'] },
      { scopeFloor: 'team:eng' },
    );
    const body = await json<Record<string, unknown>>(await call('GET', '/api/v1/whoami', { key }));
    expect(body).toMatchObject({
      context_id: ctx,
      root: false,
      principal: { kind: 'agent' },
      grants: {
        'memory:read': ['team:eng', 'team:ops'],
        'memory:write': ['team:eng'],
        'memory:forget': [],
      },
      scope_floor: 'team:eng',
      read_lens: [['team:eng'], ['team:ops']],
    });
    expect(String(body.key_id)).toMatch(/^key_/);
    expect(JSON.stringify(body)).not.toContain(key);
  });

  it('is not root for a management key bound to one Context', async () => {
    const ctx = await createContext();
    const key = await issueKey(ctx, undefined, { kind: 'management' });
    const body = await json(await call('GET', '/api/v1/whoami', { key }));
    expect(body).toMatchObject({ context_id: ctx, root: false, principal: { kind: 'management' } });
  });

  it('is 401 without a key, with a malformed or revoked one', async () => {
    await expectProblem(await call('GET', '/api/v1/whoami', { key: null }), 401, 'unauthorized');
    await expectProblem(
      await call('GET', '/api/v1/whoami', { key: 'not-a-key' }),
      401,
      'unauthorized',
    );
    const ctx = await createContext();
    const issued = await call('POST', '/api/v1/keys', {
      body: {
        principal_id: (
          await json<{ id: string }>(
            await call('POST', '/api/v1/principals', {
              body: { kind: 'agent', display_name: `who-${crypto.randomUUID()}` },
            }),
          )
        ).id,
        context_id: ctx,
        grants: { 'memory:read': ['*'] },
      },
    });
    const { id, key } = await json<{ id: string; key: string }>(issued);
    expect((await call('DELETE', `/api/v1/keys/${id}`)).status).toBe(204);
    await expectProblem(await call('GET', '/api/v1/whoami', { key }), 401, 'unauthorized');
  });
});
