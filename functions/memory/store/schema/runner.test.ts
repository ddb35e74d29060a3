import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION, SCHEMA_MIGRATIONS } from './index.ts';
import { applyMigrations, readSchemaVersion } from './runner.ts';
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
});
