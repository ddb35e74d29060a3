import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION, SCHEMA_MIGRATIONS } from './index.ts';
import { applyMigrations, migrateInPieces, readSchemaVersion } from './runner.ts';
import type { SchemaMigration } from './types.ts';

const steps: SchemaMigration[] = [
  { version: 1, name: 'one', up: (sql) => sql.exec('CREATE TABLE t1 (x INTEGER)') },
  { version: 2, name: 'two', up: (sql) => sql.exec('CREATE TABLE t2 (x INTEGER)') },
  {
    version: 3,
    name: 'three fails halfway',
    up: (sql) => {
      sql.exec('CREATE TABLE t3 (x INTEGER)');
      throw new Error('step 3 broke');
    },
  },
];

function tables(sql: SqlStorage): string[] {
  return sql
    .exec<{ name: string }>(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 't%'`,
    )
    .toArray()
    .map((r) => r.name)
    .sort();
}

describe('per-Context schema runner', () => {
  it('the list is numbered 1..n without gaps, and a new store is created at the latest', async () => {
    expect(SCHEMA_MIGRATIONS.map((m) => m.version)).toEqual(SCHEMA_MIGRATIONS.map((_, i) => i + 1));
    const stub = env.CONTEXT_STORE.getByName('runner-test-latest');
    expect(await stub.initialize()).toBe(LATEST_SCHEMA_VERSION);
    expect(await stub.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
  });

  it('applies pending versions in order up to a target and stamps each one', async () => {
    const stub = env.CONTEXT_STORE.getByName('runner-test-target');
    await runInDurableObject(stub, (_instance, state) => {
      expect(readSchemaVersion(state.storage.sql)).toBe(0);
      expect(applyMigrations(state.storage, 1, steps).map((s) => s.version)).toEqual([1]);
      expect(readSchemaVersion(state.storage.sql)).toBe(1);
      expect(applyMigrations(state.storage, 2, steps).map((s) => s.version)).toEqual([2]);
      expect(applyMigrations(state.storage, 2, steps)).toEqual([]);
      expect(tables(state.storage.sql)).toEqual(['t1', 't2']);
    });
  });

  it('a failing step rolls back alone; earlier steps and their stamp stay', async () => {
    const stub = env.CONTEXT_STORE.getByName('runner-test-failure');
    await runInDurableObject(stub, (_instance, state) => {
      expect(() => applyMigrations(state.storage, 3, steps)).toThrow('step 3 broke');
      expect(readSchemaVersion(state.storage.sql)).toBe(2);
      expect(tables(state.storage.sql)).toEqual(['t1', 't2']);
    });
  });

  it('a step with a fill goes in pieces up to a row budget, and on from the last piece done', async () => {
    let breakAt = 8;
    const filled: SchemaMigration[] = [
      {
        version: 1,
        name: 'rows',
        up: (sql) => {
          sql.exec('CREATE TABLE r (n INTEGER PRIMARY KEY, v TEXT)');
          for (let n = 1; n <= 10; n++) sql.exec('INSERT INTO r (n) VALUES (?)', n);
        },
      },
      {
        version: 2,
        name: 'fill',
        up: (sql) => sql.exec('CREATE TABLE t2 (x INTEGER)'),
        fill: (sql, after, rows) => {
          const batch = sql
            .exec<{
              n: number;
            }>('SELECT n FROM r WHERE n > ? ORDER BY n LIMIT ?', Number(after || 0), rows)
            .toArray();
          for (const { n } of batch) {
            sql.exec(`UPDATE r SET v = 'x' WHERE n = ?`, n);
            if (n === breakAt) throw new Error(`row ${n} broke`);
          }
          const last = batch[batch.length - 1];
          return batch.length < rows || !last ? null : String(last.n);
        },
      },
    ];
    const stub = env.CONTEXT_STORE.getByName('runner-test-fill');
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      const done = () =>
        sql
          .exec<{ n: number }>(`SELECT n FROM r WHERE v = 'x' ORDER BY n`)
          .toArray()
          .map((r) => r.n);
      const filling = () =>
        sql.exec<{ value: string }>(`SELECT value FROM _meta WHERE key = 'filling'`).toArray()[0]
          ?.value;
      expect(migrateInPieces(state.storage, 2, filled, 3)).toEqual({
        applied: [{ version: 1, name: 'rows' }],
        pending: true,
      });
      expect(readSchemaVersion(sql)).toBe(1);
      expect(done()).toEqual([1, 2, 3]);
      expect(filling()).toBe('2:3');
      expect(migrateInPieces(state.storage, 2, filled, 3).pending).toBe(true);
      expect(done()).toEqual([1, 2, 3, 4, 5, 6]);
      // A piece that fails rolls back alone; the pieces before it stay done.
      expect(() => migrateInPieces(state.storage, 2, filled, 3)).toThrow('row 8 broke');
      expect(done()).toEqual([1, 2, 3, 4, 5, 6]);
      expect(filling()).toBe('2:6');
      breakAt = -1;
      expect(migrateInPieces(state.storage, 2, filled, 100)).toEqual({
        applied: [{ version: 2, name: 'fill' }],
        pending: false,
      });
      expect(readSchemaVersion(sql)).toBe(2);
      expect(done()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(filling()).toBeUndefined();
      expect(tables(sql)).toEqual(['t2']);
    });
  });
});
