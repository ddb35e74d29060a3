import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import {
  beginIdempotent,
  IDEMPOTENCY_TTL_MS,
} from '../../../functions/memory/store/idempotency.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';

// Every idempotent write first purges the records older than a day (store/idempotency.ts). Each
// record keeps its response, so a Context written in batches holds thousands of large rows: the
// purge must find the expired ones by age, not read the table (schema step 16).

describe('the idempotency purge', () => {
  it('reads expired records through the created_at index and leaves the others', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('idem-expiry'), (_obj, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage);
      const plan = sql
        .exec<{ detail: string }>(
          'EXPLAIN QUERY PLAN DELETE FROM idempotency WHERE created_at < ?',
          0,
        )
        .toArray()
        .map((r) => r.detail)
        .join('\n');
      expect(plan).toMatch(/USING (COVERING )?INDEX idempotency_created/);
      expect(plan).not.toMatch(/^SCAN idempotency$/m);

      const now = Date.UTC(2026, 10, 28);
      const body = 'x'.repeat(20_000); // a stored response of a batch: tens of kB
      const record = (key: string, createdAt: number) =>
        sql.exec(
          `INSERT INTO idempotency (principal_id, key, request_hash, state, status, body, created_at)
           VALUES ('p', ?, 'h', 'done', 201, ?, ?)`,
          key,
          body,
          createdAt,
        );
      for (let i = 0; i < 40; i++) record(`old-${i}`, now - IDEMPOTENCY_TTL_MS - 1000 * (i + 1));
      for (let i = 0; i < 10; i++) record(`new-${i}`, now - 1000 * (i + 1));
      expect(beginIdempotent(sql, 'p', 'next', 'h', now)).toEqual({ state: 'proceed' });
      const keys = sql
        .exec<{ key: string }>('SELECT key FROM idempotency ORDER BY key')
        .toArray()
        .map((r) => r.key);
      expect(keys).toEqual([...Array.from({ length: 10 }, (_, i) => `new-${i}`).sort(), 'next']);
      // A key of the last day still replays.
      expect(beginIdempotent(sql, 'p', 'new-3', 'h', now)).toMatchObject({ state: 'replay' });
    });
  });
});
