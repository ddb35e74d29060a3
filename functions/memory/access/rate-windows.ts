import { fail, ok, type Result } from '../errors.ts';

interface Window {
  start: number;
  count: number;
}

/** Whether the `count`th request of a window is written through (see the class comment). */
function mustPersist(count: number, limit: number): boolean {
  const step = Math.max(1, Math.ceil(limit / 10));
  return count === 1 || count === limit + 1 || count % step === 0;
}

/**
 * Fixed one-minute windows per key for this Context, counted by the Context's own object: in
 * memory, and written behind to `_rate_windows` in its SQLite so that an evicted or restarted
 * object keeps counting near where it was (no D1, which has one primary region, on the way). REST
 * requests and MCP tool calls count here alike: one budget per key and Context.
 *
 * Not every count is written: a write holds the object's response until SQLite confirms it (the
 * output gate), which cost a fact read about 0.8 ms under `wrangler dev` (p50 1.43× `/health`'s with
 * a write per request, 1.35× without). A window is written when it opens, every tenth
 * of the limit, and at the first refusal, so a restart forgets fewer than a tenth of the limit's
 * requests (a key may then send up to 10 % more in that minute) and a refused key stays refused.
 * With a limit of ten a minute or less, every count is written.
 */
export class RateWindows {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly sql: () => SqlStorage | null) {}

  /** Counts one request of `keyId`; over `limit` it is 429 with the seconds left in the window. */
  count(keyId: string, limit: number, nowMs: number): Result<null> {
    const nowSeconds = Math.floor(nowMs / 1000);
    const start = nowSeconds - (nowSeconds % 60);
    const current = this.windows.get(keyId) ?? this.load(keyId);
    const next: Window =
      current && current.start === start
        ? { start, count: current.count + 1 }
        : { start, count: 1 };
    this.windows.set(keyId, next);
    if (mustPersist(next.count, limit)) this.persist(keyId, next);
    if (next.count > limit) {
      return fail({
        kind: 'rate-limited',
        detail: `rate limit of ${limit} requests per minute for this key and Context reached`,
        retryAfter: Math.max(1, start + 60 - nowSeconds),
      });
    }
    return ok(null);
  }

  private persist(keyId: string, next: Window): void {
    this.sql()?.exec(
      `INSERT INTO _rate_windows (key_id, window_start, count) VALUES (?, ?, ?)
       ON CONFLICT (key_id) DO UPDATE SET window_start = excluded.window_start, count = excluded.count`,
      keyId,
      next.start,
      next.count,
    );
  }

  private load(keyId: string): Window | undefined {
    const row = this.sql()
      ?.exec<{ window_start: number; count: number }>(
        'SELECT window_start, count FROM _rate_windows WHERE key_id = ?',
        keyId,
      )
      .toArray()[0];
    return row ? { start: row.window_start, count: row.count } : undefined;
  }

  clear(): void {
    this.windows.clear();
  }
}
