import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { ContextLease } from '../../../functions/memory/lease/context-lease.ts';
import { checkFence } from '../../../functions/memory/store/fencing.ts';

describe('ContextLease', () => {
  it('gives the lease to exactly one of two concurrent takers', async () => {
    const lease = env.CONTEXT_LEASE.getByName('lease-test-concurrent');
    const [a, b] = await Promise.all([lease.acquire('a', 60_000), lease.acquire('b', 60_000)]);
    expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
    const loser = a.ok ? b : a;
    const winner = a.ok ? a : b;
    expect(loser.ok).toBe(false);
    expect(loser.holder).toBe(winner.holder);
  });

  it('lets a second taker in once the first lease has expired, with a higher token', async () => {
    const lease = env.CONTEXT_LEASE.getByName('lease-test-expired');
    const first = await lease.acquire('old', 60_000);
    expect(first.ok).toBe(true);
    expect((await lease.acquire('new', 60_000)).ok).toBe(false);
    // Expire the first lease in place rather than waiting for the clock.
    await runInDurableObject(lease, (_obj: ContextLease, state) => {
      state.storage.sql.exec('UPDATE lease SET expires_at = ? WHERE id = 1', Date.now() - 1);
    });
    const second = await lease.acquire('new', 60_000);
    expect(second.ok).toBe(true);
    if (!first.ok || !second.ok) throw new Error('expected both grants');
    expect(second.token).toBeGreaterThan(first.token);
    // The stale holder can neither renew nor release the new holder's lease.
    expect(await lease.renew(first.token, 60_000)).toBe(false);
    expect(await lease.release(first.token)).toBe(false);
    expect(await lease.release(second.token)).toBe(true);
  });

  it('a released lease can be taken at once', async () => {
    const lease = env.CONTEXT_LEASE.getByName('lease-test-release');
    const first = await lease.acquire('a', 60_000);
    if (!first.ok) throw new Error('expected a grant');
    expect(await lease.release(first.token)).toBe(true);
    expect((await lease.acquire('b', 60_000)).ok).toBe(true);
  });
});

describe('ContextStore fencing', () => {
  it('refuses a token lower than the highest it has seen', async () => {
    const store = env.CONTEXT_STORE.getByName('lease-test-fence');
    await runInDurableObject(store, (_obj, state) => {
      const sql = state.storage.sql;
      expect(checkFence(sql, 2).ok).toBe(true);
      expect(checkFence(sql, 2).ok).toBe(true);
      expect(checkFence(sql, 5).ok).toBe(true);
      expect(checkFence(sql, 3)).toEqual({
        ok: false,
        reason: 'stale-fencing-token',
        token: 3,
        highest: 5,
      });
    });
  });
});
