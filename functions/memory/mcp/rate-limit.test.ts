import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { MemoryError } from '../errors.ts';
import { admitToolCall } from './rate-limit.ts';

// A fixed clock 10 s into a minute, so the window cannot roll over mid-test.
const now = () => 1_700_000_410_000;

describe('MCP tool calls share the per-minute rate limit of the key and Context', () => {
  it('admits up to the limit, then answers 429 with the seconds left in the window', async () => {
    const options = { perMinute: 2, now };
    await admitToolCall(env, 'key-rl-1', 'ctx-rl-1', options);
    await admitToolCall(env, 'key-rl-1', 'ctx-rl-1', options);
    const err = await admitToolCall(env, 'key-rl-1', 'ctx-rl-1', options).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MemoryError);
    expect((err as MemoryError).failure).toMatchObject({ kind: 'rate-limited', retryAfter: 50 });
  });

  it('keeps one budget per Context and per key', async () => {
    const options = { perMinute: 1, now };
    await admitToolCall(env, 'key-rl-2', 'ctx-a', options);
    await expect(admitToolCall(env, 'key-rl-2', 'ctx-b', options)).resolves.toBeUndefined();
    await expect(admitToolCall(env, 'key-rl-3', 'ctx-a', options)).resolves.toBeUndefined();
  });

  it('counts in the Context object’s window that REST requests of the key count in', async () => {
    // The object's own counter: a fourth call in the same window is the 4th of key-rl-1.
    const stub = env.CONTEXT_STORE.getByName('ctx-rl-1');
    const result = await stub.admit('key-rl-1', 4, now());
    expect(result.ok).toBe(true);
    const over = await stub.admit('key-rl-1', 4, now());
    expect(over).toMatchObject({ ok: false, failure: { kind: 'rate-limited' } });
  });
});
