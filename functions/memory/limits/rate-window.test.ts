import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { MemoryError } from '../errors.ts';
import { configuredPerMinute, countInWindow, DEFAULT_PER_MINUTE } from './rate-window.ts';

const minute = 1_700_000_400_000; // a window boundary (divisible by 60 s)

async function countOf(bucket: string): Promise<number[]> {
  const { results } = await env.DB.prepare(
    'SELECT count FROM rate_limit_windows WHERE bucket = ? ORDER BY window_start',
  )
    .bind(bucket)
    .all<{ count: number }>();
  return results.map((r) => r.count);
}

describe('countInWindow', () => {
  it('counts per bucket and window, and drops a bucket’s old windows when a new one starts', async () => {
    const bucket = 'rw-key-1|rw-ctx';
    await countInWindow(env.DB, bucket, 5, minute + 1_000);
    await countInWindow(env.DB, bucket, 5, minute + 59_000);
    expect(await countOf(bucket)).toEqual([2]);
    await countInWindow(env.DB, bucket, 5, minute + 61_000);
    expect(await countOf(bucket)).toEqual([1]);
  });

  it('throws 429 rate-limited over the limit with the seconds left in the window', async () => {
    const bucket = 'rw-key-2|rw-ctx';
    await countInWindow(env.DB, bucket, 1, minute + 45_000);
    const err = await countInWindow(env.DB, bucket, 1, minute + 45_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MemoryError);
    expect((err as MemoryError).failure).toMatchObject({ kind: 'rate-limited', retryAfter: 15 });
  });

  it('reads RATE_LIMIT_PER_MINUTE, falling back on nonsense', () => {
    expect(configuredPerMinute({ RATE_LIMIT_PER_MINUTE: '30' })).toBe(30);
    expect(configuredPerMinute({ RATE_LIMIT_PER_MINUTE: 'lots' })).toBe(DEFAULT_PER_MINUTE);
    expect(configuredPerMinute({ RATE_LIMIT_PER_MINUTE: '0' })).toBe(DEFAULT_PER_MINUTE);
  });
});
