import { ALL, unique } from '../memory/helpers.ts';
import { DATA_PLANE_ROUTES } from './security-routes-data.ts';
import { OK, type Route } from './security-world.ts';

/** The control-plane routes of the security table (Contexts, principals, keys, migrations). */
const CONTROL_PLANE_ROUTES: Route[] = [
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
];

/** Every /api/v1 memory route of the security table, with how to build its request. */
export const ROUTES: Route[] = [...CONTROL_PLANE_ROUTES, ...DATA_PLANE_ROUTES];
