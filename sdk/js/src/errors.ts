/**
 * Error classes of the memory service's JavaScript SDK, exactly as the service's error table:
 * one class per status family, each carrying the RFC 9457 problem body the server sent.
 */

/** The problem body (RFC 9457) the service sends with every error. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  instance?: string;
  code?: string;
  resolution?: string;
  retry_after?: number | null;
  [extension: string]: unknown;
}

/** Base of every error this SDK throws. */
export class MemoryError extends Error {
  /** HTTP status, or undefined for a network failure or timeout. */
  readonly status: number | undefined;
  /** The problem body as sent by the server (empty object when there was none). */
  readonly body: Problem;

  constructor(message: string, status: number | undefined, body: Problem, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.status = status;
    this.body = body;
  }
}

/** 401: no key, a malformed key, or an unknown or revoked one. */
export class AuthError extends MemoryError {}

/** 403: the key is valid but not permitted (management operation, scope outside the grant). */
export class ScopeError extends MemoryError {}

/** 404: the resource does not exist. */
export class NotFoundError extends MemoryError {}

/** 400 or 422: the request is malformed or semantically invalid. */
export class ValidationError extends MemoryError {}

/** 429: rate limited or the Context is blocked; `retryAfter` is in seconds when the server said. */
export class RateLimitError extends MemoryError {
  readonly retryAfter: number | undefined;

  constructor(message: string, status: number, body: Problem, retryAfter: number | undefined) {
    super(message, status, body);
    this.retryAfter = retryAfter;
  }
}

/** 500 or 503 (and any other 5xx): the server failed or shed the request. */
export class ServerError extends MemoryError {}

/** Any other non-2xx status (409 conflict, 413 payload too large, ...). */
export class ApiError extends MemoryError {}

/** The request never got an answer: a network failure or a timeout. */
export class ConnectionError extends MemoryError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, undefined, {}, options);
  }
}

/** Builds the error for a non-2xx response from its status, problem body and `Retry-After`. */
export function errorFromResponse(
  status: number,
  body: Problem,
  retryAfterSeconds: number | undefined,
): MemoryError {
  const message = `${status} ${body.title ?? 'Error'}${body.detail ? `: ${body.detail}` : ''}`;
  if (status === 401) return new AuthError(message, status, body);
  if (status === 403) return new ScopeError(message, status, body);
  if (status === 404) return new NotFoundError(message, status, body);
  if (status === 400 || status === 422) return new ValidationError(message, status, body);
  if (status === 429) {
    const fromBody = typeof body.retry_after === 'number' ? body.retry_after : undefined;
    return new RateLimitError(message, status, body, retryAfterSeconds ?? fromBody);
  }
  if (status >= 500) return new ServerError(message, status, body);
  return new ApiError(message, status, body);
}
