import { env } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { expect } from 'vitest';
import { insertItems } from '../../../functions/memory/store/items.ts';
import { beginSearch, postingsIndex } from '../../../functions/memory/store/postings-cache.ts';
import type { NewItem } from '../../../functions/memory/store/types.ts';
import type { VectorCache } from '../../../functions/memory/store/vectors.ts';

export const BOOTSTRAP = env.MEMORY_BOOTSTRAP_KEY;
export const ORIGIN = 'http://memory.test';

export interface CallOptions {
  key?: string | null;
  /** Another origin than ORIGIN: OAuth access tokens need a loopback (or https) one. */
  origin?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** One request through the real Worker entry point. */
export async function call(
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Response> {
  const headers = new Headers(options.headers);
  const key = options.key === undefined ? BOOTSTRAP : options.key;
  if (key !== null) headers.set('authorization', `Bearer ${key}`);
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !headers.has('content-type'))
    headers.set('content-type', 'application/json');
  return exports.default.fetch(`${options.origin ?? ORIGIN}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
}

export async function json<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  retry_after?: number | null;
}

/** Asserts an RFC 9457 problem with the slug and status, and returns its body. */
export async function expectProblem(res: Response, status: number, slug: string): Promise<Problem> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  const body = JSON.parse(text) as Problem;
  expect(body.type).toBe(`${ORIGIN}/errors/${slug}`);
  expect(body.status).toBe(status);
  expect(typeof body.title).toBe('string');
  expect(body.detail.length).toBeGreaterThan(0);
  expect(body.instance.startsWith('/')).toBe(true);
  expect(res.headers.get('x-request-id')).toBeTruthy();
  return body;
}

let counter = 0;
/** A name unique to this test run (Durable Object names must be unique per test). */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}-${crypto.randomUUID().slice(0, 8)}`;
}

export async function createContext(id = unique('ctx')): Promise<string> {
  const res = await call('POST', '/api/v1/contexts', { body: { id } });
  expect(res.status, await res.clone().text()).toBe(201);
  return id;
}

export async function createPrincipal(
  kind: 'agent' | 'supervisor' | 'management' = 'agent',
): Promise<string> {
  const res = await call('POST', '/api/v1/principals', {
    body: { kind, display_name: unique(kind) },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json<{ id: string }>(res)).id;
}

export type GrantsInput = Partial<
  Record<'memory:read' | 'memory:write' | 'memory:forget', string[]>
>;

export const ALL: GrantsInput = {
  'memory:read': ['*'],
  'memory:write': ['*'],
  'memory:forget': ['*'],
};

/** Issues a key for a fresh principal of `kind` on `contextId`, returning its secret. */
export async function issueKey(
  contextId: string,
  grants: GrantsInput = ALL,
  options: { kind?: 'agent' | 'supervisor' | 'management'; scopeFloor?: string } = {},
): Promise<string> {
  const principalId = await createPrincipal(options.kind ?? 'agent');
  const res = await call('POST', '/api/v1/keys', {
    body: {
      principal_id: principalId,
      context_id: contextId,
      grants,
      ...(options.scopeFloor ? { scope_floor: options.scopeFloor } : {}),
    },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json<{ key: string }>(res)).key;
}

/** A Context plus an agent key with every grant on it. */
export async function setup(grants: GrantsInput = ALL): Promise<{ ctx: string; key: string }> {
  const ctx = await createContext();
  return { ctx, key: await issueKey(ctx, grants) };
}

export async function writeFact(
  ctx: string,
  key: string,
  content: string,
  scopes: string[] = [],
): Promise<{ id: string }> {
  const res = await call('POST', `/api/v1/${ctx}/facts`, { key, body: { content, scopes } });
  expect(res.status, await res.clone().text()).toBe(201);
  const body = await json<{ facts: { id: string }[] }>(res);
  const fact = body.facts[0];
  if (!fact) throw new Error('no fact returned');
  return fact;
}

/**
 * Writes chat turns as one batch of facts in `session`, turn i at `position` i and said on day
 * i + 1 of `month` (`YYYY-MM`).
 */
export async function writeTurns(
  ctx: string,
  key: string,
  session: string,
  turns: string[],
  month = '2023-05',
): Promise<{ id: string; content: string }[]> {
  const res = await call('POST', `/api/v1/${ctx}/facts/batch`, {
    key,
    body: {
      facts: turns.map((content, position) => ({
        content,
        session,
        position,
        valid_from: `${month}-${String(position + 1).padStart(2, '0')}T18:00:00Z`,
      })),
    },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json<{ facts: { id: string; content: string }[] }>(res)).facts;
}

/** A plain fact as `insertItems` takes it: no scopes, metadata, session, source or vector. */
export function plainItem(content: string) {
  return {
    kind: 'fact' as const,
    content,
    scopes: [],
    metadata: null,
    sessionId: null,
    sourceId: null,
    vector: null,
  };
}

/** Writes `items` into an object's store, `batch` rows a transaction. */
export function writeInBatches(
  storage: DurableObjectStorage,
  cache: VectorCache,
  items: NewItem[],
  batch: number,
): void {
  for (let i = 0; i < items.length; i += batch)
    storage.transactionSync(() =>
      insertItems(storage.sql, cache, items.slice(i, i + batch), '2024-01-01T00:00:00.000Z'),
    );
}

/** The postings index once up to `searches` searches have asked for it, or null. */
export function indexAfterSearches(sql: SqlStorage, searches: number) {
  let index = null;
  for (let i = 0; i < searches && !index; i++) {
    beginSearch(sql);
    index = postingsIndex(sql);
  }
  return index;
}

/** How many facts the key can list in the Context (first page of 100). */
export async function countFacts(ctx: string, key: string): Promise<number> {
  const res = await call('GET', `/api/v1/${ctx}/facts?limit=100`, { key });
  return (await json<{ facts: unknown[] }>(res)).facts.length;
}
