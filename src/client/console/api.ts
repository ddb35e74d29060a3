/**
 * Every call the console makes goes through here: the public memory API with the signed-in key
 * (or the OAuth access token standing for it) as a bearer token, so the console can show no more
 * than that key may read. Problems (RFC 9457) become an `ApiError` carrying their detail, which
 * the views print as they are.
 */
import { refreshAccessToken } from './oauth.ts';
import { currentSession, signOut } from './session.ts';

const SIGN_IN_PATH = '/console';

export interface Problem {
  title: string;
  status: number;
  detail: string;
  code?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | null,
  ) {
    super(problem ? `${problem.title}: ${problem.detail}` : `HTTP ${status}`);
  }
}

export class SignedOutError extends Error {
  constructor() {
    super('Not signed in.');
  }
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
}

function urlOf(path: string, query: CallOptions['query']): string {
  const url = new URL(path, location.origin);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url.pathname + url.search;
}

function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && 'title' in value && 'detail' in value;
}

function send(bearer: string, path: string, options: CallOptions): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${bearer}` };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(urlOf(path, options.query), {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? null : JSON.stringify(options.body),
    // The key is a bearer token: nothing the browser keeps (cookies, cache) should ride along.
    credentials: 'omit',
    cache: 'no-store',
  });
}

/**
 * An OAuth session's 401 (the access token expired, most often): refresh once and send again; a
 * second refusal, or no refresh, ends the session and goes back to sign in.
 */
async function retryWithFreshToken(
  spent: string,
  path: string,
  options: CallOptions,
): Promise<Response> {
  // Another call may have refreshed meanwhile: then its token is tried, not a second refresh.
  const fresh = currentSession()?.key !== spent || (await refreshAccessToken());
  const bearer = currentSession()?.key;
  const res = fresh && bearer !== undefined ? await send(bearer, path, options) : null;
  if (res !== null && res.status !== 401) return res;
  signOut();
  location.assign(SIGN_IN_PATH);
  throw new SignedOutError();
}

/** The raw response of an authenticated call (export streams NDJSON, not JSON). */
export async function call(path: string, options: CallOptions = {}): Promise<Response> {
  const session = currentSession();
  if (session === null) throw new SignedOutError();
  let res = await send(session.key, path, options);
  if (res.status === 401 && session.oauth !== null)
    res = await retryWithFreshToken(session.key, path, options);
  if (res.ok) return res;
  const body: unknown = await res.json().catch(() => null);
  throw new ApiError(res.status, isProblem(body) ? body : null);
}

/**
 * A JSON call. The type parameter is what docs/memory-api.md documents for the route; the
 * console trusts its own service's answers rather than shipping a validator to the browser.
 */
export async function api<T>(path: string, options: CallOptions = {}): Promise<T> {
  const res = await call(path, options);
  return (await res.json()) as T;
}

/** `/api/v1/{context}/...` with the Context id encoded. */
export function inContext(contextId: string, rest: string): string {
  return `/api/v1/${encodeURIComponent(contextId)}${rest}`;
}
