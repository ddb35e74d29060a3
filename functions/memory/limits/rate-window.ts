import { MemoryError } from '../errors.ts';

/** Requests per key and Context per minute when `RATE_LIMIT_PER_MINUTE` is unset or invalid. */
export const DEFAULT_PER_MINUTE = 1200;

/** `RATE_LIMIT_PER_MINUTE` as a positive integer, else the default. */
export function configuredPerMinute(env: Pick<Env, 'RATE_LIMIT_PER_MINUTE'>): number {
  const n = Number.parseInt(env.RATE_LIMIT_PER_MINUTE ?? '', 10);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_PER_MINUTE;
}

/**
 * Counts one request in the fixed one-minute window of `bucket` (`<key id>|<Context or ->`) in D1
 * (`rate_limit_windows`), the one store every isolate shares: one UPSERT ... RETURNING per
 * request. REST (middleware/rate-limit.ts) and MCP tool calls (mcp/rate-limit.ts) both count
 * here, so a key has one budget per Context whichever surface it uses. Over the limit it throws
 * 429 `rate-limited` with the seconds left in the window.
 */
export async function countInWindow(
  db: D1Database,
  bucket: string,
  limit: number,
  nowMs: number,
): Promise<void> {
  const nowSeconds = Math.floor(nowMs / 1000);
  const window = nowSeconds - (nowSeconds % 60);
  const row = await db
    .prepare(
      `INSERT INTO rate_limit_windows (bucket, window_start, count) VALUES (?, ?, 1)
       ON CONFLICT (bucket, window_start) DO UPDATE SET count = count + 1
       RETURNING count`,
    )
    .bind(bucket, window)
    .first<{ count: number }>();
  const count = row?.count ?? 1;
  if (count === 1) {
    // First hit of a new window: drop this bucket's old windows so the table stays small.
    await db
      .prepare('DELETE FROM rate_limit_windows WHERE bucket = ? AND window_start < ?')
      .bind(bucket, window)
      .run();
  }
  if (count > limit) {
    throw new MemoryError({
      kind: 'rate-limited',
      detail: `rate limit of ${limit} requests per minute for this key and Context reached`,
      retryAfter: Math.max(1, window + 60 - nowSeconds),
    });
  }
}
