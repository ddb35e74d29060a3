import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { RateWindows } from '../../../functions/memory/access/rate-windows.ts';
import { setup } from '../memory/helpers.ts';

const MINUTE = Date.UTC(2026, 10, 23, 18, 0, 0);

/** Counts `n` requests of `key`; how many were refused. */
function send(rates: RateWindows, key: string, n: number, limit: number): number {
  let refused = 0;
  for (let i = 0; i < n; i++) if (!rates.count(key, limit, MINUTE + i).ok) refused++;
  return refused;
}

function stored(sql: SqlStorage, key: string): number | null {
  const row = sql
    .exec<{ count: number }>('SELECT count FROM _rate_windows WHERE key_id = ?', key)
    .toArray()[0];
  return row?.count ?? null;
}

// The windows live in the Context object's SQLite (`_rate_windows`); they are written behind,
// not on every request, and a restarted object (a new RateWindows over the same database) goes on
// counting from what was written.
describe('rate windows written behind to the Context object', () => {
  it('writes when a window opens and every tenth of the limit, and a restart loses less than that', async () => {
    const { ctx } = await setup();
    await runInDurableObject(env.CONTEXT_STORE.getByName(ctx), (_obj, state) => {
      const sql = state.storage.sql;
      const rates = new RateWindows(() => sql);
      expect(send(rates, 'k1', 1, 1200)).toBe(0);
      expect(stored(sql, 'k1')).toBe(1);
      expect(send(rates, 'k1', 250, 1200)).toBe(0);
      // 251 counted; the last write was at 240 (every 120).
      expect(stored(sql, 'k1')).toBe(240);
      const restarted = new RateWindows(() => sql);
      expect(send(restarted, 'k1', 1, 1200)).toBe(0);
      expect(stored(sql, 'k1')).toBe(240);
      expect(send(restarted, 'k1', 119, 1200)).toBe(0);
      expect(stored(sql, 'k1')).toBe(360);
    });
  });

  it('a key refused before a restart is refused after it, and a small limit is exact', async () => {
    const { ctx } = await setup();
    await runInDurableObject(env.CONTEXT_STORE.getByName(ctx), (_obj, state) => {
      const sql = state.storage.sql;
      const rates = new RateWindows(() => sql);
      // Limit 100: written at 1, every 10, and at 101 (the first refusal).
      expect(send(rates, 'k2', 101, 100)).toBe(1);
      expect(stored(sql, 'k2')).toBe(101);
      expect(send(new RateWindows(() => sql), 'k2', 1, 100)).toBe(1);
      // Limit 5: every count is written, so a restart forgets nothing.
      const small = new RateWindows(() => sql);
      expect(send(small, 'k3', 4, 5)).toBe(0);
      expect(stored(sql, 'k3')).toBe(4);
      expect(send(new RateWindows(() => sql), 'k3', 2, 5)).toBe(1);
    });
  });
});
