import type { SchemaMigration } from './types.ts';

/**
 * Idempotency records found by age (issue 38): every idempotent write first deletes the records
 * older than a day, and without an index on `created_at` that read the whole table. A record keeps
 * its response (a batch of 100 facts: tens of kB), so at a million facts written in batches the
 * table held about 10,000 of them and 400 MB: 60% of `POST /facts/batch`'s time under `wrangler
 * dev` went to that scan (the Worker isolate's CPU profile, `scale-cold.ts grow --profile`). The
 * index makes the purge a range read of what has expired. Built once here over the records of the
 * last day.
 */
export const idempotencyExpiryStep: SchemaMigration = {
  version: 16,
  name: 'idempotency records by age',
  up(sql) {
    sql.exec('CREATE INDEX idempotency_created ON idempotency (created_at)');
  },
};
