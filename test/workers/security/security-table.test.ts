import { describe, expect, it } from 'vitest';
import { ALL, BOOTSTRAP, call, json, unique, type GrantsInput } from '../memory/helpers.ts';

// Issue 15 item 8: every memory route x key kind x grant, with the status it must answer. One row
// per case; the expected status comes from POLICY (the access rules of docs/security.md written
// as a table) unless a route names its own exception. MCP tools: security-table-mcp.test.ts.

/** The key kinds and grants a request can come with. */
const KEYS = [
  'root', // unbound management key (the bootstrap key)
  'bound', // management key bound to the Context, every grant
  'otherMgmt', // management key bound to another Context
  'agent', // agent key, every grant
  'supervisor', // supervisor key, every grant
  'reader', // agent key with memory:read only
  'scoped', // agent key granted team:a for every verb; its requests name team:b
  'revoked', // an agent key, revoked
  'otherAgent', // agent key of another Context, every grant
  'none', // no Authorization header
] as const;
type KeyName = (typeof KEYS)[number];

/** What a route needs: the rows of the access policy. */
type Need =
  | 'root' // deployment-wide: creating Contexts, migrations and dead letters
  | 'anyMgmt' // any management key, acting in its own tenant (principals)
  | 'tenantAdmin' // a management key of this Context (or root)
  | 'view' // any key of this Context (reads the Context's settings)
  | 'read'
  | 'write'
  | 'forget'
  | 'supervise'; // persisting reflections: a supervisor (or management) principal

const OK = 0; // placeholder for the route's own success status
const POLICY: Record<Need, Record<KeyName, number>> = {
  // prettier-ignore
  root:        { root: OK, bound: 403, otherMgmt: 403, agent: 403, supervisor: 403, reader: 403, scoped: 403, revoked: 401, otherAgent: 403, none: 401 },
  // prettier-ignore
  anyMgmt:     { root: OK, bound: OK,  otherMgmt: OK,  agent: 403, supervisor: 403, reader: 403, scoped: 403, revoked: 401, otherAgent: 403, none: 401 },
  // prettier-ignore
  tenantAdmin: { root: OK, bound: OK,  otherMgmt: 403, agent: 403, supervisor: 403, reader: 403, scoped: 403, revoked: 401, otherAgent: 403, none: 401 },
  // prettier-ignore
  view:        { root: OK, bound: OK,  otherMgmt: 403, agent: OK,  supervisor: OK,  reader: OK,  scoped: OK,  revoked: 401, otherAgent: 403, none: 401 },
  // prettier-ignore
  read:        { root: OK, bound: OK,  otherMgmt: 403, agent: OK,  supervisor: OK,  reader: OK,  scoped: 403, revoked: 401, otherAgent: 403, none: 401 },
  // prettier-ignore
  write:       { root: OK, bound: OK,  otherMgmt: 403, agent: OK,  supervisor: OK,  reader: 403, scoped: 403, revoked: 401, otherAgent: 403, none: 401 },
  // prettier-ignore
  forget:      { root: OK, bound: OK,  otherMgmt: 403, agent: OK,  supervisor: OK,  reader: 403, scoped: 403, revoked: 401, otherAgent: 403, none: 401 },
  // prettier-ignore
  supervise:   { root: OK, bound: OK,  otherMgmt: 403, agent: 403, supervisor: OK,  reader: 403, scoped: 403, revoked: 401, otherAgent: 403, none: 401 },
};

const GRANTS: Record<'reader' | 'scoped', GrantsInput> = {
  reader: { 'memory:read': ['*'] },
  scoped: { 'memory:read': ['team:a'], 'memory:write': ['team:a'], 'memory:forget': ['team:a'] },
};

/** A Context, a second one, and the keys of the table, issued on first use. */
class World {
  readonly ctx = unique('sec');
  readonly other = unique('sec-other');
  private readonly keys = new Map<KeyName, string | null>();

  async init(): Promise<this> {
    for (const id of [this.ctx, this.other]) {
      const res = await call('POST', '/api/v1/contexts', { body: { id } });
      expect(res.status).toBe(201);
    }
    return this;
  }

  private async issue(
    ctx: string,
    kind: 'agent' | 'supervisor' | 'management',
    grants: GrantsInput,
  ): Promise<{ id: string; key: string }> {
    const principal = await call('POST', '/api/v1/principals', {
      body: { kind, display_name: unique(kind) },
    });
    const principalId = (await json<{ id: string }>(principal)).id;
    const res = await call('POST', '/api/v1/keys', {
      body: { principal_id: principalId, context_id: ctx, grants },
    });
    expect(res.status).toBe(201);
    return json<{ id: string; key: string }>(res);
  }

  async key(name: KeyName): Promise<string | null> {
    const known = this.keys.get(name);
    if (known !== undefined) return known;
    let key: string | null;
    if (name === 'root') key = BOOTSTRAP;
    else if (name === 'none') key = null;
    else if (name === 'bound') key = (await this.issue(this.ctx, 'management', ALL)).key;
    else if (name === 'otherMgmt') key = (await this.issue(this.other, 'management', ALL)).key;
    else if (name === 'supervisor') key = (await this.issue(this.ctx, 'supervisor', ALL)).key;
    else if (name === 'otherAgent') key = (await this.issue(this.other, 'agent', ALL)).key;
    else if (name === 'reader' || name === 'scoped')
      key = (await this.issue(this.ctx, 'agent', GRANTS[name])).key;
    else if (name === 'revoked') {
      const issued = await this.issue(this.ctx, 'agent', ALL);
      expect((await call('DELETE', `/api/v1/keys/${issued.id}`)).status).toBe(204);
      key = issued.key;
    } else key = (await this.issue(this.ctx, 'agent', ALL)).key;
    this.keys.set(name, key);
    return key;
  }

  /** Fixtures are made with the root key, fresh for each case that needs one. */
  async fact(): Promise<string> {
    const res = await call('POST', `/api/v1/${this.ctx}/facts`, {
      body: { content: `Fixture fact ${unique('f')}`, scopes: ['team:b'] },
    });
    return (await json<{ facts: { id: string }[] }>(res)).facts[0]?.id ?? '';
  }

  /** A session in `scope` (team:b is outside the scoped key's grant, team:a inside it). */
  async session(scope: string): Promise<string> {
    const res = await call('POST', `/api/v1/${this.ctx}/sessions`, { body: { scopes: [scope] } });
    expect(res.status).toBe(201);
    return (await json<{ id: string }>(res)).id;
  }

  async document(): Promise<string> {
    const res = await call('POST', `/api/v1/${this.ctx}/documents?filename=f.md&scopes=team:b`, {
      rawBody: `# Fixture ${unique('d')}\n\nSome text.`,
      headers: { 'content-type': 'text/markdown' },
    });
    return (await json<{ id: string }>(res)).id;
  }

  /** A document's file, as its sha256 and the text uploaded (made with the root key). */
  async documentBlob(): Promise<{ sha256: string; text: string }> {
    const text = `# Blob ${unique('b')}\n\nSome text.`;
    const res = await call('POST', `/api/v1/${this.ctx}/documents?filename=b.md&scopes=team:b`, {
      rawBody: text,
      headers: { 'content-type': 'text/markdown' },
    });
    expect(res.status).toBe(202);
    return { sha256: (await json<{ sha256: string }>(res)).sha256, text };
  }

  /** The export of `contextId`, taken with the root key: a valid backup to import. */
  async exportOf(contextId: string): Promise<string> {
    const res = await call('GET', `/api/v1/contexts/${contextId}/export`);
    expect(res.status).toBe(200);
    return res.text();
  }

  async principalHere(): Promise<string> {
    const bound = await this.key('bound');
    const res = await call('POST', '/api/v1/principals', {
      key: bound,
      body: { kind: 'agent', display_name: unique('tenant-agent') },
    });
    return (await json<{ id: string }>(res)).id;
  }

  async keyHere(): Promise<string> {
    return (await this.issue(this.ctx, 'agent', ALL)).id;
  }
}

interface Req {
  method: string;
  path: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

interface Route {
  name: string;
  need: Need;
  ok: number;
  /** Builds the request; `scope` is the path a scoped request names (team:b: outside `scoped`). */
  build: (w: World, scope: string) => Promise<Req>;
  /** Each case gets a World of its own: the request destroys or needs an empty Context. */
  fresh?: boolean;
  /** Statuses that differ from POLICY for this route, with the reason in the comment. */
  except?: Partial<Record<KeyName, number>>;
}

const ROUTES: Route[] = [
  {
    name: 'POST /contexts',
    need: 'root',
    ok: 201,
    build: async () => ({ method: 'POST', path: '/api/v1/contexts', body: { id: unique('new') } }),
  },
  {
    name: 'GET /contexts/{id}',
    need: 'view',
    ok: 200,
    build: async (w) => ({ method: 'GET', path: `/api/v1/contexts/${w.ctx}` }),
  },
  {
    name: 'PATCH /contexts/{id}',
    need: 'tenantAdmin',
    ok: 200,
    build: async (w) => ({
      method: 'PATCH',
      path: `/api/v1/contexts/${w.ctx}`,
      body: { token_limit: 1000 },
    }),
  },
  {
    name: 'DELETE /contexts/{id}',
    need: 'tenantAdmin',
    ok: 204,
    fresh: true,
    build: async (w) => ({ method: 'DELETE', path: `/api/v1/contexts/${w.ctx}` }),
  },
  {
    name: 'GET /contexts/{id}/export',
    need: 'tenantAdmin',
    ok: 200,
    build: async (w) => ({ method: 'GET', path: `/api/v1/contexts/${w.ctx}/export` }),
  },
  {
    name: 'POST /contexts/{id}/import',
    need: 'tenantAdmin',
    ok: 200,
    fresh: true,
    // Import (backup branch) checks the end line's per-table counts and checksum: the body is a
    // real export of another fresh Context, replayed into this empty one.
    build: async (w) => ({
      method: 'POST',
      path: `/api/v1/contexts/${w.ctx}/import`,
      rawBody: await w.exportOf(w.other),
      headers: { 'content-type': 'application/x-ndjson' },
    }),
  },
  {
    name: 'GET /contexts/{id}/export/blobs/{sha256}',
    need: 'tenantAdmin',
    ok: 200,
    build: async (w) => ({
      method: 'GET',
      path: `/api/v1/contexts/${w.ctx}/export/blobs/${(await w.documentBlob()).sha256}`,
    }),
  },
  {
    name: 'PUT /contexts/{id}/import/blobs/{sha256}',
    need: 'tenantAdmin',
    // The document's file is already in place: kept, 200 with restored: false.
    ok: 200,
    build: async (w) => {
      const blob = await w.documentBlob();
      return {
        method: 'PUT',
        path: `/api/v1/contexts/${w.ctx}/import/blobs/${blob.sha256}`,
        rawBody: blob.text,
        headers: { 'content-type': 'application/octet-stream' },
      };
    },
  },
  {
    name: 'POST /principals',
    need: 'anyMgmt',
    ok: 201,
    build: async () => ({
      method: 'POST',
      path: '/api/v1/principals',
      body: { kind: 'agent', display_name: unique('p') },
    }),
  },
  {
    name: 'GET /principals/{id} (a principal of this tenant)',
    need: 'tenantAdmin',
    ok: 200,
    // Another tenant's principal reads as missing (404), not forbidden: no existence oracle.
    except: { otherMgmt: 404 },
    build: async (w) => ({ method: 'GET', path: `/api/v1/principals/${await w.principalHere()}` }),
  },
  {
    name: 'DELETE /principals/{id} (a principal of this tenant)',
    need: 'tenantAdmin',
    ok: 204,
    // Another tenant's principal reads as missing (404), not forbidden: no existence oracle.
    except: { otherMgmt: 404 },
    build: async (w) => ({
      method: 'DELETE',
      path: `/api/v1/principals/${await w.principalHere()}`,
    }),
  },
  {
    name: 'POST /keys (in this Context)',
    need: 'tenantAdmin',
    ok: 201,
    build: async (w) => ({
      method: 'POST',
      path: '/api/v1/keys',
      body: { principal_id: await w.principalHere(), context_id: w.ctx, grants: ALL },
    }),
  },
  {
    name: 'DELETE /keys/{id} (a key of this Context)',
    need: 'tenantAdmin',
    ok: 204,
    except: { otherMgmt: 404 },
    build: async (w) => ({ method: 'DELETE', path: `/api/v1/keys/${await w.keyHere()}` }),
  },
  {
    name: 'PATCH /keys/{id} (a key of this Context)',
    need: 'tenantAdmin',
    ok: 200,
    except: { otherMgmt: 404 },
    build: async (w) => ({
      method: 'PATCH',
      path: `/api/v1/keys/${await w.keyHere()}`,
      body: { scope_floor: null },
    }),
  },
  {
    name: 'GET /migrations',
    need: 'root',
    ok: 200,
    build: async () => ({ method: 'GET', path: '/api/v1/migrations' }),
  },
  {
    name: 'POST /migrations/dlq/{id}/retry',
    need: 'root',
    // No such dead letter: the root key gets past the guard to the look-up.
    ok: 404,
    build: async () => ({ method: 'POST', path: '/api/v1/migrations/dlq/dlq_missing/retry' }),
  },
  {
    name: 'POST /{ctx}/facts',
    need: 'write',
    ok: 201,
    build: async (w, scope) => ({
      method: 'POST',
      path: `/api/v1/${w.ctx}/facts`,
      body: { content: 'Table fact', scopes: [scope] },
    }),
  },
  {
    name: 'POST /{ctx}/facts/batch',
    need: 'write',
    ok: 201,
    build: async (w, scope) => ({
      method: 'POST',
      path: `/api/v1/${w.ctx}/facts/batch`,
      body: { facts: [{ content: 'Batch fact', scopes: [scope] }] },
    }),
  },
  {
    name: 'GET /{ctx}/facts',
    need: 'read',
    ok: 200,
    build: async (w, scope) => ({
      method: 'GET',
      path: `/api/v1/${w.ctx}/facts?lens=${encodeURIComponent(JSON.stringify([scope]))}`,
    }),
  },
  {
    name: 'GET /{ctx}/facts/{id}',
    need: 'read',
    ok: 200,
    // A fact outside the read grant is absent to its reader (404), not forbidden.
    except: { scoped: 404 },
    build: async (w) => ({ method: 'GET', path: `/api/v1/${w.ctx}/facts/${await w.fact()}` }),
  },
  {
    name: 'DELETE /{ctx}/facts/{id}',
    need: 'forget',
    ok: 204,
    except: { scoped: 404 },
    build: async (w) => ({ method: 'DELETE', path: `/api/v1/${w.ctx}/facts/${await w.fact()}` }),
  },
  {
    name: 'POST /{ctx}/query',
    need: 'read',
    ok: 200,
    build: async (w, scope) => ({
      method: 'POST',
      path: `/api/v1/${w.ctx}/query`,
      body: { query: 'fixture', mode: 'bm25', lens: [scope] },
    }),
  },
  {
    name: 'POST /{ctx}/context',
    need: 'read',
    ok: 200,
    // No lens on this route: the block is drawn from the key's whole read grant.
    except: { scoped: OK },
    build: async (w) => ({
      method: 'POST',
      path: `/api/v1/${w.ctx}/context`,
      body: { query: 'fixture' },
    }),
  },
  {
    name: 'POST /{ctx}/chat',
    need: 'read',
    ok: 200,
    build: async (w, scope) => ({
      method: 'POST',
      path: `/api/v1/${w.ctx}/chat`,
      body: { message: 'What is the fixture?', lens: [scope] },
    }),
  },
  {
    name: 'POST /{ctx}/reflect',
    need: 'read',
    ok: 200,
    build: async (w, scope) => ({
      method: 'POST',
      path: `/api/v1/${w.ctx}/reflect`,
      body: { lens: [scope] },
    }),
  },
  {
    name: 'POST /{ctx}/reflect (persist)',
    need: 'supervise',
    ok: 200,
    build: async (w, scope) => ({
      method: 'POST',
      path: `/api/v1/${w.ctx}/reflect`,
      body: { lens: [scope], persist: true },
    }),
  },
  {
    name: 'POST /{ctx}/consolidate',
    need: 'write',
    ok: 200,
    build: async (w, scope) => ({
      method: 'POST',
      path: `/api/v1/${w.ctx}/consolidate`,
      body: { lens: [scope], dry_run: true },
    }),
  },
  {
    name: 'POST /{ctx}/sessions',
    // Sessions carry scopes (sec-data): they are set inside the creator's write grant, so the
    // scoped key is refused a session in team:b, outside its grant.
    need: 'write',
    ok: 201,
    build: async (w, scope) => ({
      method: 'POST',
      path: `/api/v1/${w.ctx}/sessions`,
      body: { scopes: [scope] },
    }),
  },
  {
    name: "POST /{ctx}/sessions (inside the scoped key's grant)",
    need: 'write',
    ok: 201,
    except: { scoped: OK },
    build: async (w) => ({
      method: 'POST',
      path: `/api/v1/${w.ctx}/sessions`,
      body: { scopes: ['team:a'] },
    }),
  },
  {
    name: 'POST /{ctx}/sessions (unscoped)',
    need: 'write',
    ok: 201,
    // A session without scopes needs the root (*) write grant: the scoped key is refused (403).
    build: async (w) => ({ method: 'POST', path: `/api/v1/${w.ctx}/sessions`, body: {} }),
  },
  {
    name: 'GET /{ctx}/sessions',
    // No lens: the list is filtered to the key's read grant (the leak check below holds it).
    except: { scoped: OK },
    need: 'read',
    ok: 200,
    build: async (w) => {
      await w.session('team:a');
      await w.session('team:b');
      return { method: 'GET', path: `/api/v1/${w.ctx}/sessions` };
    },
  },
  {
    name: 'GET /{ctx}/sessions/{sid}',
    // The fixture session is in the request's scope: team:b, outside the scoped key's grant,
    // is absent to it (404), not forbidden.
    except: { scoped: 404 },
    need: 'read',
    ok: 200,
    build: async (w, scope) => ({
      method: 'GET',
      path: `/api/v1/${w.ctx}/sessions/${await w.session(scope)}`,
    }),
  },
  {
    name: "GET /{ctx}/sessions/{sid} (a session inside the scoped key's grant)",
    except: { scoped: OK },
    need: 'read',
    ok: 200,
    build: async (w) => ({
      method: 'GET',
      path: `/api/v1/${w.ctx}/sessions/${await w.session('team:a')}`,
    }),
  },
  {
    name: 'DELETE /{ctx}/sessions/{sid}',
    // The fixture session is in the request's scope: team:b, outside the scoped key's grant,
    // is absent to it (404), not forbidden.
    except: { scoped: 404 },
    need: 'forget',
    ok: 204,
    build: async (w, scope) => ({
      method: 'DELETE',
      path: `/api/v1/${w.ctx}/sessions/${await w.session(scope)}`,
    }),
  },
  {
    name: "DELETE /{ctx}/sessions/{sid} (a session inside the scoped key's grant)",
    except: { scoped: OK },
    need: 'forget',
    ok: 204,
    build: async (w) => ({
      method: 'DELETE',
      path: `/api/v1/${w.ctx}/sessions/${await w.session('team:a')}`,
    }),
  },
  {
    name: 'POST /{ctx}/sessions/{sid}/turns',
    // The fixture session is in the request's scope: team:b, outside the scoped key's grant,
    // is absent to it (404), not forbidden.
    except: { scoped: 404 },
    need: 'write',
    ok: 201,
    build: async (w, scope) => ({
      method: 'POST',
      path: `/api/v1/${w.ctx}/sessions/${await w.session(scope)}/turns`,
      body: { role: 'user', content: 'Hello' },
    }),
  },
  {
    name: "POST /{ctx}/sessions/{sid}/turns (a session inside the scoped key's grant)",
    except: { scoped: OK },
    need: 'write',
    ok: 201,
    build: async (w) => ({
      method: 'POST',
      path: `/api/v1/${w.ctx}/sessions/${await w.session('team:a')}/turns`,
      body: { role: 'user', content: 'Hello' },
    }),
  },
  {
    name: 'GET /{ctx}/sessions/{sid}/turns',
    // The fixture session is in the request's scope: team:b, outside the scoped key's grant,
    // is absent to it (404), not forbidden.
    except: { scoped: 404 },
    need: 'read',
    ok: 200,
    build: async (w, scope) => ({
      method: 'GET',
      path: `/api/v1/${w.ctx}/sessions/${await w.session(scope)}/turns`,
    }),
  },
  {
    name: "GET /{ctx}/sessions/{sid}/turns (a session inside the scoped key's grant)",
    except: { scoped: OK },
    need: 'read',
    ok: 200,
    build: async (w) => ({
      method: 'GET',
      path: `/api/v1/${w.ctx}/sessions/${await w.session('team:a')}/turns`,
    }),
  },
  {
    name: 'GET /{ctx}/sessions/{sid}/context',
    // The fixture session is in the request's scope: team:b, outside the scoped key's grant,
    // is absent to it (404), not forbidden.
    except: { scoped: 404 },
    need: 'read',
    ok: 200,
    build: async (w, scope) => ({
      method: 'GET',
      path: `/api/v1/${w.ctx}/sessions/${await w.session(scope)}/context`,
    }),
  },
  {
    name: "GET /{ctx}/sessions/{sid}/context (a session inside the scoped key's grant)",
    except: { scoped: OK },
    need: 'read',
    ok: 200,
    build: async (w) => ({
      method: 'GET',
      path: `/api/v1/${w.ctx}/sessions/${await w.session('team:a')}/context`,
    }),
  },
  {
    name: 'POST /{ctx}/documents',
    need: 'write',
    ok: 202,
    build: async (w, scope) => ({
      method: 'POST',
      path: `/api/v1/${w.ctx}/documents?filename=t.md&scopes=${scope}`,
      rawBody: `# Table ${unique('doc')}\n\nText.`,
      headers: { 'content-type': 'text/markdown' },
    }),
  },
  {
    name: 'GET /{ctx}/documents',
    // No lens: the list is filtered to the key's read grant (the leak check below holds it).
    except: { scoped: OK },

    need: 'read',
    ok: 200,
    build: async (w) => ({ method: 'GET', path: `/api/v1/${w.ctx}/documents` }),
  },
  {
    name: 'GET /{ctx}/documents/{id}',
    need: 'read',
    ok: 200,
    except: { scoped: 404 },
    build: async (w) => ({
      method: 'GET',
      path: `/api/v1/${w.ctx}/documents/${encodeURIComponent(await w.document())}`,
    }),
  },
  {
    name: 'DELETE /{ctx}/documents/{id}',
    need: 'forget',
    ok: 204,
    except: { scoped: 404 },
    build: async (w) => ({
      method: 'DELETE',
      path: `/api/v1/${w.ctx}/documents/${encodeURIComponent(await w.document())}`,
    }),
  },
];

interface Case {
  route: Route;
  key: KeyName;
  expected: number;
}

const CASES: Case[] = ROUTES.flatMap((route) =>
  KEYS.map((key) => {
    const policy = route.except?.[key] ?? POLICY[route.need][key];
    return { route, key, expected: policy === OK ? route.ok : policy };
  }),
);

let shared: World | undefined;
async function worldFor(route: Route): Promise<World> {
  if (route.fresh) return new World().init();
  shared ??= await new World().init();
  return shared;
}

describe('security table: every memory route x key kind x grant', () => {
  it('covers every /api/v1 operation of the memory OpenAPI description', async () => {
    const res = await call('GET', '/api/v1/openapi.json', { key: null });
    const doc = await json<{ paths: Record<string, Record<string, unknown>> }>(res);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const covered = new Set(ROUTES.map((r) => r.name.split(' (')[0]));
    const normalise = (op: string) =>
      op.replace('/api/v1', '').replace('{context_id}', '{ctx}').replace('{session_id}', '{sid}');
    const missing = documented.map(normalise).filter((op) => !covered.has(op));
    expect(missing).toEqual([]);
  });

  it.each(CASES.map((c) => [c.route.name, c.key, c.expected, c] as const))(
    '%s with %s key -> %i',
    async (_name, keyName, expected, c) => {
      const w = await worldFor(c.route);
      const req = await c.route.build(w, keyName === 'scoped' ? 'team:b' : 'team:a');
      const res = await call(req.method, req.path, {
        key: await w.key(keyName),
        ...(req.body === undefined ? {} : { body: req.body }),
        ...(req.rawBody === undefined ? {} : { rawBody: req.rawBody }),
        ...(req.headers === undefined ? {} : { headers: req.headers }),
      });
      const text = await res.text();
      expect(res.status, `${req.method} ${req.path}: ${text.slice(0, 300)}`).toBe(expected);
      if (expected >= 400) expect(res.headers.get('content-type')).toContain('problem+json');
      // Fixtures live in team:b, outside the scoped key's grant: whatever it is answered names
      // none of them (no id, content or scope outside the caller's grant).
      if (keyName === 'scoped') {
        expect(text).not.toContain('Fixture');
        expect(text).not.toContain('"team:b"');
      }
    },
  );
});
