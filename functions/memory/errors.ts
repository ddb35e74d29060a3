import { HTTPException } from 'hono/http-exception';
import type { ErrorSlug } from '../../src/lib/error-catalog.ts';
import { errorTypeBase, problemBody, problemResponse } from '../../src/lib/problem.ts';

/**
 * Expected failures as tagged values keyed by the slugs of src/lib/error-catalog.ts.
 * They cross Durable Object RPC as plain data (custom error properties do not survive RPC), and
 * are thrown in the Worker as a `MemoryError` carrying one. `toProblem` maps each to the wire.
 */
export type MemoryFailure =
  | { kind: 'validation-error'; detail: string; errors?: FieldError[] }
  | { kind: 'unauthorized'; detail: string }
  | { kind: 'forbidden'; detail: string }
  | { kind: 'not-found'; detail: string }
  | { kind: 'context-not-found'; detail: string }
  | { kind: 'method-not-allowed'; detail: string; allow: string[] }
  | { kind: 'conflict'; detail: string }
  | { kind: 'payload-too-large'; detail: string }
  | { kind: 'unprocessable'; detail: string }
  | { kind: 'rate-limited'; detail: string; retryAfter: number | null }
  | { kind: 'internal'; detail: string }
  | { kind: 'service-unavailable'; detail: string; retryAfter: number }
  | { kind: 'misconfigured'; detail: string; invalidSettings: { name: string; problem: string }[] };

/** One invalid field of a request, as RFC 9457's `errors` extension lists them. */
export interface FieldError {
  /** What is wrong with this field. */
  detail: string;
  /** JSON Pointer (RFC 6901) to the field in the request body. */
  pointer: string;
}

// Compile-time check that the union and the catalogue agree in both directions.
type Kinds = MemoryFailure['kind'];
const catalogueCovered: Record<ErrorSlug, Kinds> = {
  'validation-error': 'validation-error',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  'not-found': 'not-found',
  'context-not-found': 'context-not-found',
  'method-not-allowed': 'method-not-allowed',
  conflict: 'conflict',
  'payload-too-large': 'payload-too-large',
  unprocessable: 'unprocessable',
  'rate-limited': 'rate-limited',
  internal: 'internal',
  'service-unavailable': 'service-unavailable',
  misconfigured: 'misconfigured',
};
void catalogueCovered;

/** A value or an expected failure: what store RPC methods return. */
export type Result<T> = { ok: true; value: T } | { ok: false; failure: MemoryFailure };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(failure: MemoryFailure): Result<T> {
  return { ok: false, failure };
}

/** The one throwable of the memory service. Handlers never catch it; `app.onError` maps it. */
export class MemoryError extends Error {
  readonly failure: MemoryFailure;
  constructor(failure: MemoryFailure) {
    super(`${failure.kind}: ${failure.detail}`);
    this.name = 'MemoryError';
    this.failure = failure;
  }
}

/** Shorthand for the common case: `throw failure('not-found', 'fact x does not exist')`. */
export function failure(
  kind: Exclude<
    Kinds,
    'method-not-allowed' | 'rate-limited' | 'service-unavailable' | 'misconfigured'
  >,
  detail: string,
): MemoryError {
  return new MemoryError({ kind, detail } as MemoryFailure);
}

/** Unwraps a store result, throwing its failure. */
export function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw new MemoryError(result.failure);
}

export interface WireProblem {
  slug: ErrorSlug;
  detail: string;
  headers: Record<string, string>;
  extensions: Record<string, unknown>;
}

/** The one exhaustive mapping from a failure to its problem slug, headers and extensions. */
export function toWire(f: MemoryFailure, requestId: string): WireProblem {
  switch (f.kind) {
    case 'validation-error':
      return {
        slug: f.kind,
        detail: f.detail,
        headers: {},
        extensions: f.errors === undefined ? {} : { errors: f.errors },
      };
    case 'unauthorized':
    case 'forbidden':
    case 'not-found':
    case 'context-not-found':
    case 'conflict':
    case 'payload-too-large':
    case 'unprocessable':
      return { slug: f.kind, detail: f.detail, headers: {}, extensions: {} };
    case 'method-not-allowed':
      return {
        slug: f.kind,
        detail: f.detail,
        headers: { allow: f.allow.join(', ') },
        extensions: {},
      };
    case 'rate-limited':
      return {
        slug: f.kind,
        detail: f.detail,
        headers: f.retryAfter === null ? {} : { 'retry-after': String(f.retryAfter) },
        extensions: { retry_after: f.retryAfter },
      };
    case 'internal':
      return {
        slug: f.kind,
        detail: `${f.detail} (request id ${requestId})`,
        headers: {},
        extensions: { request_id: requestId },
      };
    case 'service-unavailable':
      return {
        slug: f.kind,
        detail: f.detail,
        headers: { 'retry-after': String(f.retryAfter) },
        extensions: {},
      };
    case 'misconfigured':
      return {
        slug: f.kind,
        detail: f.detail,
        headers: {},
        extensions: { invalid_settings: f.invalidSettings },
      };
    default: {
      const never: never = f;
      return never;
    }
  }
}

/** Framework errors (hono's malformed JSON, unknown routes) as failures. */
export function failureFromUnknown(err: unknown): MemoryFailure {
  if (err instanceof MemoryError) return err.failure;
  if (err instanceof HTTPException) {
    if (err.status === 400) return { kind: 'validation-error', detail: err.message };
    if (err.status === 401) return { kind: 'unauthorized', detail: err.message };
    if (err.status === 404) return { kind: 'not-found', detail: err.message };
    if (err.status === 413) return { kind: 'payload-too-large', detail: err.message };
    if (err.status === 415) {
      return {
        kind: 'validation-error',
        detail: 'Content-Type must be application/json for this request',
      };
    }
    if (err.status >= 400 && err.status < 500)
      return { kind: 'validation-error', detail: err.message };
  }
  return { kind: 'internal', detail: 'An unexpected error occurred' };
}

/** RFC 9728 metadata of this origin as a protected resource; every 401 points at it. */
export function resourceMetadataUrl(origin: string): string {
  return `${origin}/.well-known/oauth-protected-resource`;
}

/**
 * `WWW-Authenticate` of every 401, on REST as on `/mcp` (RFC 6750 §3, MCP authorization spec,
 * RFC 9728 §5.1): a client learns from any refusal where to get a token.
 */
export function bearerChallenge(origin: string): string {
  return `Bearer resource_metadata="${resourceMetadataUrl(origin)}"`;
}

/** Builds the RFC 9457 response for a failure, for a request path and an origin. */
export function problemFor(
  f: MemoryFailure,
  opts: { requestId: string; instance: string; origin: string; typeBase: string | undefined },
): Response {
  const wire = toWire(f, opts.requestId);
  const body = problemBody({
    slug: wire.slug,
    detail: wire.detail,
    instance: opts.instance,
    typeBase: errorTypeBase(opts.typeBase, opts.origin),
    extensions: wire.extensions,
  });
  const challenge: Record<string, string> =
    f.kind === 'unauthorized' ? { 'www-authenticate': bearerChallenge(opts.origin) } : {};
  return problemResponse(body, { ...wire.headers, ...challenge, 'x-request-id': opts.requestId });
}
