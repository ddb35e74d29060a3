import { env } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { expect, vi } from 'vitest';
import type { AuthContext } from '../../../functions/memory/auth/principal.ts';

/** The bootstrap management key the workerd test config sets (vitest.workers.config.ts). */
export const MANAGEMENT_KEY = 'mem_management_bootstrap_for_tests_only_0000000000';

export function call(
  path: string,
  init: { method?: string; body?: unknown; key?: string; accept?: string } = {},
): Promise<Response> {
  const headers = new Headers({ authorization: `Bearer ${init.key ?? MANAGEMENT_KEY}` });
  if (init.body !== undefined) headers.set('content-type', 'application/json');
  if (init.accept) headers.set('accept', init.accept);
  return exports.default.fetch(`https://example.com${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

export async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

export async function createContext(
  id: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await json(await call('/api/v1/contexts', { body: { id, ...extra } }), 201);
}

/** A key of the given principal kind bound to one Context, with every grant. */
export async function keyFor(
  contextId: string,
  kind: 'agent' | 'supervisor',
  name: string,
): Promise<string> {
  const principal = await json<{ id: string }>(
    await call('/api/v1/principals', { body: { kind, display_name: name } }),
    201,
  );
  const all = ['*'];
  const key = await json<{ key: string }>(
    await call('/api/v1/keys', {
      body: {
        principal_id: principal.id,
        context_id: contextId,
        grants: { 'memory:read': all, 'memory:write': all, 'memory:forget': all },
      },
    }),
    201,
  );
  return key.key;
}

export interface Fact {
  id: string;
  kind: string;
  content: string;
  metadata: Record<string, unknown> | null;
  valid_from?: string;
  valid_until?: string | null;
  superseded_by?: string | null;
}

export async function listFacts(
  ctx: string,
  kind = 'fact',
  includeSuperseded = false,
): Promise<Fact[]> {
  const history = includeSuperseded ? '&include_superseded=true' : '';
  const body = await json<{ facts: Fact[] }>(
    await call(`/api/v1/${ctx}/facts?kind=${kind}&limit=100${history}`),
    200,
  );
  return body.facts;
}

/** Waits until a background job has stored a fact matching `predicate`. */
export async function waitForFact(ctx: string, predicate: (f: Fact) => boolean): Promise<Fact> {
  let found: Fact | undefined;
  await vi.waitFor(
    async () => {
      found = (await listFacts(ctx)).find(predicate);
      expect(found).toBeDefined();
    },
    { timeout: 15_000, interval: 100 },
  );
  if (!found) throw new Error('fact never appeared');
  return found;
}

/** A caller with every grant on one Context, for driving operations directly. */
export function rootAuth(contextId: string): AuthContext {
  const all = ['*'];
  return {
    principal: { id: 'test-root', kind: 'management', displayName: 'test' },
    key: {
      keyId: 'test-root',
      contextId,
      grants: { 'memory:read': all, 'memory:write': all, 'memory:forget': all },
      scopeFloor: null,
    },
  };
}

/** The body of the `extract_turns` job queued for a turn, as recorded in D1. */
export async function queuedJob(turnId: string): Promise<Record<string, unknown>> {
  const row = await env.DB.prepare(
    `SELECT body FROM jobs WHERE kind = 'extract_turns' AND json_extract(body, '$.turn_id') = ?`,
  )
    .bind(turnId)
    .first<{ body: string }>();
  if (!row) throw new Error(`no extract_turns job for ${turnId}`);
  return JSON.parse(row.body) as Record<string, unknown>;
}

/** An agent key bound to one Context with exactly these grants (a verb left out grants nothing). */
export async function grantedKey(
  contextId: string,
  name: string,
  grants: { read?: string[]; write?: string[]; forget?: string[] },
): Promise<string> {
  const principal = await json<{ id: string }>(
    await call('/api/v1/principals', { body: { kind: 'agent', display_name: name } }),
    201,
  );
  const key = await json<{ key: string }>(
    await call('/api/v1/keys', {
      body: {
        principal_id: principal.id,
        context_id: contextId,
        grants: {
          'memory:read': grants.read ?? [],
          'memory:write': grants.write ?? [],
          'memory:forget': grants.forget ?? [],
        },
      },
    }),
    201,
  );
  return key.key;
}
