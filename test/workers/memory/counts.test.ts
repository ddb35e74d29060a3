import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { countedSinceLastWrite } from '../../../functions/memory/store/counts.ts';

// A search's row counts are kept until the database's next write (store/counts.ts).
describe('countedSinceLastWrite', () => {
  it('counts again after any write, a rolled-back one included, and not before', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('counts-memo'), (_obj, state) => {
      const sql = state.storage.sql;
      sql.exec('CREATE TABLE things (n INTEGER)');
      let asked = 0;
      const count = (): number => {
        asked++;
        return sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM things').one().n;
      };
      expect(countedSinceLastWrite(sql, 'things', count)).toBe(0);
      expect(countedSinceLastWrite(sql, 'things', count)).toBe(0);
      expect(asked).toBe(1);
      sql.exec('INSERT INTO things (n) VALUES (1), (2)');
      expect(countedSinceLastWrite(sql, 'things', count)).toBe(2);
      expect(asked).toBe(2);
      expect(() =>
        state.storage.transactionSync(() => {
          sql.exec('INSERT INTO things (n) VALUES (3)');
          throw new Error('roll back');
        }),
      ).toThrow('roll back');
      expect(countedSinceLastWrite(sql, 'things', count)).toBe(2);
      expect(asked).toBe(3);
      sql.exec('DELETE FROM things WHERE n = 1');
      expect(countedSinceLastWrite(sql, 'things', count)).toBe(1);
    });
  });
});
