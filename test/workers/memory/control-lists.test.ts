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
} from './helpers.ts';

// GET /api/v1/contexts, /keys and /principals: the control-plane lists the console reads instead
// of remembering ids in the tab. Keyset pages by id; a key bound to one Context sees its tenant
// only; secrets and hashes never leave.

interface Page<T> {
  next_cursor: string | null;
  contexts?: T[];
  keys?: T[];
  principals?: T[];
}

/** Every row of a list, following next_cursor with pages of `limit`. */
async function all<T>(
  path: string,
  field: 'contexts' | 'keys' | 'principals',
  key?: string,
  limit = 2,
): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 500; pages++) {
    const sep = path.includes('?') ? '&' : '?';
    const url = `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await call('GET', url, key === undefined ? {} : { key });
    expect(res.status, await res.clone().text()).toBe(200);
    const page = await json<Page<T>>(res);
    rows.push(...(page[field] ?? []));
    cursor = page.next_cursor;
    if (cursor === null) return rows;
  }
  throw new Error('too many pages');
}

async function managementKey(ctx: string): Promise<{ id: string; key: string }> {
  const principal = await createPrincipal('management');
  const res = await call('POST', '/api/v1/keys', {
    body: { principal_id: principal, context_id: ctx, grants: ALL },
  });
  expect(res.status).toBe(201);
  return json<{ id: string; key: string }>(res);
}

describe('GET /api/v1/contexts', () => {
  it('pages every Context by id for a root key, with no row twice and no usage calls', async () => {
    const ids = [await createContext(), await createContext(), await createContext()];
    const listed = await all<{ id: string; schema_version: number }>(
      '/api/v1/contexts',
      'contexts',
    );
    const seen = listed.map((c) => c.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual(seen);
    for (const id of ids) expect(seen).toContain(id);
    const one = listed.find((c) => c.id === ids[0]);
    expect(one).toMatchObject({ enforcement_blocked: false, token_limit: null, namespace: null });
    expect(one?.schema_version).toBeGreaterThan(0);
    expect(one).not.toHaveProperty('usage');
  });

  it('shows a bound management key its own Context only', async () => {
    const mine = await createContext();
    await createContext();
    const { key } = await managementKey(mine);
    const listed = await all<{ id: string }>('/api/v1/contexts', 'contexts', key);
    expect(listed.map((c) => c.id)).toEqual([mine]);
  });

  it('refuses agent keys (403), no key (401), and bad paging (400 problems)', async () => {
    const ctx = await createContext();
    await expectProblem(
      await call('GET', '/api/v1/contexts', { key: await issueKey(ctx) }),
      403,
      'forbidden',
    );
    await expectProblem(await call('GET', '/api/v1/contexts', { key: null }), 401, 'unauthorized');
    for (const q of [
      'limit=0',
      'limit=101',
      'limit=ten',
      'cursor=%25%25%25',
      'cursor=' + btoa('a b'),
    ])
      await expectProblem(await call('GET', `/api/v1/contexts?${q}`), 400, 'validation-error');
  });
});

describe('GET /api/v1/keys', () => {
  it('lists keys without secret or hash; revoked ones only when asked', async () => {
    const ctx = await createContext();
    const principal = await createPrincipal('agent');
    const issued: { id: string; key: string; prefix: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call('POST', '/api/v1/keys', {
        body: { principal_id: principal, context_id: ctx, grants: { 'memory:read': ['team:a'] } },
      });
      issued.push(await json(res));
    }
    const revoked = issued[2];
    if (!revoked) throw new Error('no key issued');
    expect((await call('DELETE', `/api/v1/keys/${revoked.id}`)).status).toBe(204);

    const res = await call('GET', `/api/v1/keys?context_id=${ctx}&limit=100`);
    const text = await res.clone().text();
    for (const { key } of issued) expect(text).not.toContain(key);
    expect(text).not.toMatch(/"(hash|key)":/);
    const page = await json<{ keys: Record<string, unknown>[] }>(res);
    expect(page.keys.map((k) => k.id)).toEqual(
      issued
        .slice(0, 2)
        .map((k) => k.id)
        .sort(),
    );
    expect(page.keys[0]).toMatchObject({
      principal_id: principal,
      context_id: ctx,
      kind: 'agent',
      grants: { 'memory:read': ['team:a'], 'memory:write': [], 'memory:forget': [] },
      scope_floor: null,
      revoked_at: null,
    });
    expect(String(page.keys[0]?.prefix)).toMatch(/^mem_agent_/);

    const withRevoked = await all<{ id: string; revoked_at: string | null }>(
      `/api/v1/keys?context_id=${ctx}&include_revoked=true`,
      'keys',
    );
    expect(withRevoked.map((k) => k.id)).toEqual(issued.map((k) => k.id).sort());
    expect(withRevoked.find((k) => k.id === revoked.id)?.revoked_at).toBeTruthy();

    const byPrincipal = await all<{ principal_id: string }>(
      `/api/v1/keys?principal_id=${principal}`,
      'keys',
    );
    expect(byPrincipal.map((k) => k.principal_id)).toEqual([principal, principal]);
  });

  it("shows a bound management key its own Context's keys; another Context is 403", async () => {
    const mine = await createContext();
    const other = await createContext();
    await issueKey(other);
    const admin = await managementKey(mine);
    const agentKey = await issueKey(mine);
    const listed = await all<{ id: string; context_id: string }>('/api/v1/keys', 'keys', admin.key);
    expect(listed.length).toBe(2);
    expect(new Set(listed.map((k) => k.context_id))).toEqual(new Set([mine]));
    expect(listed.map((k) => k.id)).toContain(admin.id);
    await expectProblem(
      await call('GET', `/api/v1/keys?context_id=${other}`, { key: admin.key }),
      403,
      'forbidden',
    );
    await expectProblem(await call('GET', '/api/v1/keys', { key: agentKey }), 403, 'forbidden');
  });

  it('refuses bad filters with a validation problem', async () => {
    for (const q of ['include_revoked=yes', 'context_id=', 'limit=-1', 'cursor=!'])
      await expectProblem(await call('GET', `/api/v1/keys?${q}`), 400, 'validation-error');
  });
});

describe('GET /api/v1/principals', () => {
  it("pages a root key's principals and filters by kind", async () => {
    const made = [await createPrincipal('agent'), await createPrincipal('supervisor')];
    const listed = await all<{ id: string; kind: string }>('/api/v1/principals', 'principals');
    for (const id of made) expect(listed.map((p) => p.id)).toContain(id);
    const supervisors = await all<{ kind: string }>(
      '/api/v1/principals?kind=supervisor',
      'principals',
    );
    expect(supervisors.length).toBeGreaterThan(0);
    expect(new Set(supervisors.map((p) => p.kind))).toEqual(new Set(['supervisor']));
  });

  it('shows a bound management key the principals of its tenant only', async () => {
    const mine = await createContext();
    const admin = await managementKey(mine);
    const own = await call('POST', '/api/v1/principals', {
      key: admin.key,
      body: { kind: 'agent', display_name: unique('tenant') },
    });
    const ownId = (await json<{ id: string }>(own)).id;
    const elsewhere = await createPrincipal('agent');
    const listed = await all<{ id: string }>('/api/v1/principals', 'principals', admin.key);
    const ids = listed.map((p) => p.id);
    expect(ids).toContain(ownId);
    expect(ids).not.toContain(elsewhere);
    // The admin's own principal holds a key in the Context: visible too.
    expect(ids.length).toBe(2);
  });

  it('refuses agent keys and unknown kinds', async () => {
    const ctx = await createContext();
    await expectProblem(
      await call('GET', '/api/v1/principals', { key: await issueKey(ctx) }),
      403,
      'forbidden',
    );
    await expectProblem(
      await call('GET', '/api/v1/principals?kind=robot'),
      400,
      'validation-error',
    );
  });
});
