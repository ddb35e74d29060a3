import { ALL, unique } from '../memory/helpers.ts';
import { OK, type Route } from './security-world.ts';

/** Every /api/v1 memory route of the security table, with how to build its request. */
export const ROUTES: Route[] = [
  {
    name: 'POST /contexts',
    need: 'root',
    ok: 201,
    build: async () => ({ method: 'POST', path: '/api/v1/contexts', body: { id: unique('new') } }),
  },
  {
    // A bound management key lists its own Context only (test/workers/memory/control-lists).
    name: 'GET /contexts',
    need: 'anyMgmt',
    ok: 200,
    build: async () => ({ method: 'GET', path: '/api/v1/contexts' }),
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
    name: 'GET /principals',
    need: 'anyMgmt',
    ok: 200,
    build: async () => ({ method: 'GET', path: '/api/v1/principals' }),
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
    name: 'GET /keys',
    need: 'anyMgmt',
    ok: 200,
    build: async () => ({ method: 'GET', path: '/api/v1/keys' }),
  },
  {
    name: 'GET /keys (of this Context)',
    need: 'tenantAdmin',
    ok: 200,
    build: async (w) => ({ method: 'GET', path: `/api/v1/keys?context_id=${w.ctx}` }),
  },
  {
    name: 'GET /whoami',
    need: 'anyKey',
    ok: 200,
    build: async () => ({ method: 'GET', path: '/api/v1/whoami' }),
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
    name: 'PATCH /{ctx}/facts/{id}',
    need: 'write',
    ok: 200,
    // A fact outside the read grant is absent to its editor (404), not forbidden.
    except: { scoped: 404 },
    build: async (w) => ({
      method: 'PATCH',
      path: `/api/v1/${w.ctx}/facts/${await w.fact()}`,
      body: { content: 'Table edit' },
    }),
  },
  {
    name: 'GET /{ctx}/facts/{id}/history',
    need: 'read',
    ok: 200,
    except: { scoped: 404 },
    build: async (w) => ({
      method: 'GET',
      path: `/api/v1/${w.ctx}/facts/${await w.fact()}/history`,
    }),
  },
  {
    name: 'GET /{ctx}/entities',
    need: 'read',
    ok: 200,
    // No lens: the list is drawn from the key's read grant (the leak check below holds it).
    except: { scoped: OK },
    build: async (w) => {
      await w.fact();
      return { method: 'GET', path: `/api/v1/${w.ctx}/entities?limit=100` };
    },
  },
  {
    name: 'GET /{ctx}/entities/{name}',
    need: 'read',
    ok: 200,
    // Only team:b facts mention it: absent to the scoped key (404), not forbidden.
    except: { scoped: 404 },
    build: async (w) => {
      await w.fact();
      return { method: 'GET', path: `/api/v1/${w.ctx}/entities/oslo` };
    },
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
