import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { forgetSchema, hasColumn, hasTable } from '../../../functions/memory/store/schema-facts.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';

// Schema checks are remembered per database once positive (store/schema-facts.ts): steps only add
// columns and tables, so only a wipe, an import at an older version or a step may change the
// answer, and each of those forgets.
describe('schema facts', () => {
  it('remembers a column once seen, until the database is forgotten', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('schema-facts-memo'), (_obj, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage);
      expect(hasColumn(sql, 'items', 'session_label')).toBe(true);
      expect(hasTable(sql, 'item_links')).toBe(true);
      expect(hasColumn(sql, 'items', 'no_such_column')).toBe(false);
      sql.exec('CREATE TABLE scratch (a TEXT, b TEXT)');
      expect(hasColumn(sql, 'scratch', 'b')).toBe(true);
      sql.exec('ALTER TABLE scratch DROP COLUMN b');
      // Remembered: no schema step drops a column, so SQLite is not asked again...
      expect(hasColumn(sql, 'scratch', 'b')).toBe(true);
      // ...until the paths that can remove one (wipe, import, a step) forget.
      forgetSchema(sql);
      expect(hasColumn(sql, 'scratch', 'b')).toBe(false);
      // An absent column is asked for again each time, so a step that adds it is seen at once.
      sql.exec('ALTER TABLE scratch ADD COLUMN c TEXT');
      expect(hasColumn(sql, 'scratch', 'c')).toBe(true);
    });
  });

  it('a schema step forgets: a Context rebuilt at an older version answers for that version', async () => {
    await runInDurableObject(
      env.CONTEXT_STORE.getByName('schema-facts-import'),
      async (_obj, state) => {
        const sql = state.storage.sql;
        applyMigrations(state.storage);
        expect(hasColumn(sql, 'items', 'session_label')).toBe(true);
        await state.storage.deleteAll();
        forgetSchema(sql);
        applyMigrations(state.storage, 3);
        expect(hasColumn(sql, 'items', 'session_label')).toBe(false);
        expect(hasColumn(sql, 'items', 'valid_until')).toBe(true);
        applyMigrations(state.storage);
        expect(hasColumn(sql, 'items', 'session_label')).toBe(true);
      },
    );
  });
});
