import type { SchemaMigration } from './types.ts';

/**
 * Sessions get scopes (additive), like facts: a JSON array of scope paths, `[]` for unscoped.
 * Sessions stored before this step had no scopes and become unscoped, which only keys with the
 * root (`*`) grant see: the safe reading of "no scope was ever given" (facts without scopes are
 * read the same way). An operator who wants them visible to a team re-creates or re-scopes them.
 */
export const sessionScopes: SchemaMigration = {
  version: 5,
  name: 'session scopes',
  up(sql) {
    sql.exec(`ALTER TABLE sessions ADD COLUMN scopes TEXT NOT NULL DEFAULT '[]'`);
  },
};
