import type { SchemaMigration } from './types.ts';

/**
 * Access cache (additive, issue 12): the object answers auth and rate limits for its own Context
 * without D1. `_access_keys` holds the key hashes it has seen with their grants, floor and
 * principal (a JSON entry, refreshed from D1 when it expires or a control-plane write says so);
 * `_access_context` the Context's own registry row; `_rate_windows` the per-key one-minute
 * windows. Names start with `_` so backups skip them: they are copies of control-plane state.
 */
export const accessCache: SchemaMigration = {
  version: 8,
  name: 'access cache: key grants, Context row, rate windows',
  up(sql) {
    sql.exec(`CREATE TABLE _access_keys (
      hash TEXT PRIMARY KEY,
      key_id TEXT,
      entry TEXT NOT NULL,
      expires_at INTEGER NOT NULL
    ) WITHOUT ROWID`);
    sql.exec('CREATE INDEX _access_keys_key_id ON _access_keys(key_id)');
    sql.exec(`CREATE TABLE _access_context (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      row TEXT NOT NULL,
      expires_at INTEGER NOT NULL
    )`);
    sql.exec(`CREATE TABLE _rate_windows (
      key_id TEXT PRIMARY KEY,
      window_start INTEGER NOT NULL,
      count INTEGER NOT NULL
    ) WITHOUT ROWID`);
  },
};
