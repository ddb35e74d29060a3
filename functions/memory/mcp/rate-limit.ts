import { unwrap, type Result } from '../errors.ts';

export { configuredPerMinute } from '../limits/rate-window.ts';

export interface ToolRateLimitOptions {
  /** Calls per key and Context per minute. */
  perMinute: number;
  /** Clock in milliseconds. */
  now?: () => number;
}

/** The part of the Context's object a tool call's admission needs. */
interface RateCounter {
  admit(keyId: string, perMinute: number, nowMs: number): Promise<Result<null>>;
}

/**
 * Counts one MCP tool call in the Context's own object, in the same per-minute window as the
 * key's REST requests on that Context (context-object/context-store.ts), so a key gets one budget
 * per Context whichever surface it uses. Over the limit: 429 with `retry_after`.
 */
export async function admitToolCall(
  env: Env,
  keyId: string,
  contextId: string,
  options: ToolRateLimitOptions,
): Promise<void> {
  // The namespace's stub type is not expanded here (see ContextStoreStub); `admit` takes and
  // returns plain data.
  const counter = env.CONTEXT_STORE.getByName(contextId) as unknown as RateCounter;
  unwrap(await counter.admit(keyId, options.perMinute, (options.now ?? Date.now)()));
}
