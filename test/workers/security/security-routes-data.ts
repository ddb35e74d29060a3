import { unique } from '../memory/helpers.ts';
import { OK, type Route } from './security-world.ts';

/** The data-plane routes of the security table (`/api/v1/{ctx}/...`), in registration order. */
export const DATA_PLANE_ROUTES: Route[] = [
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
