import { countInWindow } from '../limits/rate-window.ts';
import { MemoryError } from '../errors.ts';

/** The caller's address as Cloudflare reports it; one shared bucket when there is none (tests). */
export function clientAddress(request: Request): string {
  return request.headers.get('cf-connecting-ip') ?? 'unknown';
}

/**
 * Counts one attempt in `bucket`'s one-minute window (the D1 table every isolate shares) and
 * returns the seconds to wait when the limit is passed, else null.
 */
export async function throttled(
  env: Env,
  bucket: string,
  perMinute: number,
): Promise<number | null> {
  try {
    await countInWindow(env.DB, bucket, perMinute, Date.now());
    return null;
  } catch (err) {
    if (err instanceof MemoryError && err.failure.kind === 'rate-limited') {
      return err.failure.retryAfter ?? 60;
    }
    throw err;
  }
}

/** An OAuth-format error (RFC 6749 §5.2, RFC 7591 §3.2.2), never cached. */
export function oauthError(
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ error, error_description: description }), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

export function tooManyAttempts(retryAfter: number, what: string): Response {
  return oauthError(
    429,
    'temporarily_unavailable',
    `too many ${what} from this address; retry in ${retryAfter} s`,
    { 'retry-after': String(retryAfter) },
  );
}
