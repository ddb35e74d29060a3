import { MemoryError } from '../errors.ts';

export interface ToolRateLimitOptions {
  /** Calls per key and Context per minute. */
  perMinute: number;
  /** Clock in milliseconds. */
  now?: () => number;
}

/**
 * Counts one MCP tool call in the same per-minute window as REST requests (the
 * `rate_limit_windows` bucket `<key id>|<Context>` of middleware/rate-limit.ts), so a key gets one
 * budget per Context whichever surface it uses. Over the limit: 429 with `retry_after`.
 */
export async function admitToolCall(
  db: D1Database,
  keyId: string,
  contextId: string,
  options: ToolRateLimitOptions,
): Promise<void> {
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  const window = nowSeconds - (nowSeconds % 60);
  const bucket = `${keyId}|${contextId}`;
  const row = await db
    .prepare(
      `INSERT INTO rate_limit_windows (bucket, window_start, count) VALUES (?, ?, 1)
       ON CONFLICT (bucket, window_start) DO UPDATE SET count = count + 1
       RETURNING count`,
    )
    .bind(bucket, window)
    .first<{ count: number }>();
  if ((row?.count ?? 1) > options.perMinute) {
    throw new MemoryError({
      kind: 'rate-limited',
      detail: `rate limit of ${options.perMinute} requests per minute for this key and Context reached`,
      retryAfter: Math.max(1, window + 60 - nowSeconds),
    });
  }
}

/** `RATE_LIMIT_PER_MINUTE`, as the REST middleware reads it. */
export function configuredPerMinute(env: Env): number {
  const n = Number.parseInt(env.RATE_LIMIT_PER_MINUTE ?? '', 10);
  return Number.isFinite(n) && n > 0 ? n : 1200;
}
