import { countInWindow } from '../limits/rate-window.ts';

export { configuredPerMinute } from '../limits/rate-window.ts';

export interface ToolRateLimitOptions {
  /** Calls per key and Context per minute. */
  perMinute: number;
  /** Clock in milliseconds. */
  now?: () => number;
}

/**
 * Counts one MCP tool call in the same per-minute window as REST requests (the bucket
 * `<key id>|<Context>` of limits/rate-window.ts), so a key gets one budget per Context whichever
 * surface it uses. Over the limit: 429 with `retry_after`.
 */
export async function admitToolCall(
  db: D1Database,
  keyId: string,
  contextId: string,
  options: ToolRateLimitOptions,
): Promise<void> {
  await countInWindow(db, `${keyId}|${contextId}`, options.perMinute, (options.now ?? Date.now)());
}
