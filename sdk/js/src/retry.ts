/**
 * The retry rules shared by every request: which failures are retried, how long to wait.
 * Backoff is 250, 500, 1000 ms (doubling from `baseDelayMs`); a delta-seconds `Retry-After`
 * raises the wait to the server's figure, an HTTP-date one is ignored (plain backoff), because
 * the service only emits delta-seconds and a date depends on clocks agreeing.
 */

export interface RetryOptions {
  /** Retries after the first attempt (default 3, so at most four attempts). */
  maxRetries?: number;
  /** First backoff in milliseconds (default 250); each retry doubles it. */
  baseDelayMs?: number;
}

export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_BASE_DELAY_MS = 250;

/** Backoff before retry number `retry` (0-based): 250, 500, 1000, ... */
export function backoffMs(retry: number, baseDelayMs = DEFAULT_BASE_DELAY_MS): number {
  return baseDelayMs * 2 ** retry;
}

/**
 * Seconds from a `Retry-After` header in delta-seconds form; undefined for an absent header or
 * any other form (an HTTP-date included).
 */
export function parseRetryAfter(header: string | null | undefined): number | undefined {
  if (header === null || header === undefined) return undefined;
  const trimmed = header.trim();
  if (!/^\d+$/.test(trimmed)) return undefined;
  return Number(trimmed);
}

/** The wait before the next attempt: the larger of our backoff and the server's delay. */
export function retryDelayMs(
  retry: number,
  retryAfterSeconds: number | undefined,
  baseDelayMs = DEFAULT_BASE_DELAY_MS,
): number {
  const own = backoffMs(retry, baseDelayMs);
  return retryAfterSeconds === undefined ? own : Math.max(own, retryAfterSeconds * 1000);
}

/** Statuses worth another attempt: rate limited and server-side failures. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
