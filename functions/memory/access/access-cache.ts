import type { ContextRow } from '../operations/contexts.ts';
import { KEY_TTL_MS, NEGATIVE_TTL_MS, type KeyEntry } from './access-types.ts';

interface Cached<T> {
  value: T;
  expiresAt: number;
}

/**
 * The object's copy of the control plane it needs per request: key entries by hash and its own
 * Context row. Memory first; positive answers are also kept in the Context's SQLite
 * (`_access_keys`, `_access_context`) so an evicted object wakes up without D1. `sql` returns
 * null where those tables do not exist (a Context below the access-cache schema step, or a name
 * that is no Context at all): then the cache is memory-only and nothing is written.
 * `undefined` from a getter means "not cached": ask D1.
 */
export class AccessCache {
  private readonly keys = new Map<string, Cached<KeyEntry | null>>();
  private context: Cached<ContextRow | null> | null = null;
  /**
   * Moves on whenever a control-plane notification arrives. A D1 read that started before one
   * may carry what it just invalidated, so its answer serves its own request but is not kept.
   */
  epoch = 0;

  constructor(private readonly sql: () => SqlStorage | null) {}

  key(hash: string, now: number): KeyEntry | null | undefined {
    let cached = this.keys.get(hash);
    if (!cached) {
      const row = this.sql()
        ?.exec<{ entry: string; expires_at: number }>(
          'SELECT entry, expires_at FROM _access_keys WHERE hash = ?',
          hash,
        )
        .toArray()[0];
      if (row) {
        cached = { value: JSON.parse(row.entry) as KeyEntry, expiresAt: row.expires_at };
        this.keys.set(hash, cached);
      }
    }
    if (!cached || cached.expiresAt <= now) return undefined;
    return cached.value;
  }

  rememberKey(hash: string, entry: KeyEntry | null, now: number, readAt = this.epoch): void {
    if (readAt !== this.epoch) return;
    const expiresAt = now + (entry ? KEY_TTL_MS : NEGATIVE_TTL_MS);
    this.keys.set(hash, { value: entry, expiresAt });
    if (!entry) return;
    this.sql()?.exec(
      `INSERT INTO _access_keys (hash, key_id, entry, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (hash) DO UPDATE SET key_id = excluded.key_id, entry = excluded.entry,
         expires_at = excluded.expires_at`,
      hash,
      entry.keyId,
      JSON.stringify(entry),
      expiresAt,
    );
  }

  /** Drops the named keys (a control-plane write changed them); the next request reads D1. */
  forgetKeys(keyIds: readonly string[]): number {
    this.epoch += 1;
    const ids = new Set(keyIds);
    let dropped = 0;
    for (const [hash, cached] of this.keys) {
      if (cached.value && ids.has(cached.value.keyId)) {
        this.keys.delete(hash);
        dropped += 1;
      }
    }
    const sql = this.sql();
    if (sql) {
      for (const id of ids) sql.exec('DELETE FROM _access_keys WHERE key_id = ?', id);
    }
    return dropped;
  }

  contextRow(now: number): ContextRow | null | undefined {
    if (!this.context) {
      const row = this.sql()
        ?.exec<{ row: string; expires_at: number }>(
          'SELECT row, expires_at FROM _access_context WHERE id = 1',
        )
        .toArray()[0];
      if (row)
        this.context = { value: JSON.parse(row.row) as ContextRow, expiresAt: row.expires_at };
    }
    if (!this.context || this.context.expiresAt <= now) return undefined;
    return this.context.value;
  }

  rememberContext(row: ContextRow | null, now: number, readAt = this.epoch): void {
    if (readAt !== this.epoch) return;
    const expiresAt = now + (row ? KEY_TTL_MS : NEGATIVE_TTL_MS);
    this.context = { value: row, expiresAt };
    if (!row) return;
    this.sql()?.exec(
      `INSERT INTO _access_context (id, row, expires_at) VALUES (1, ?, ?)
       ON CONFLICT (id) DO UPDATE SET row = excluded.row, expires_at = excluded.expires_at`,
      JSON.stringify(row),
      expiresAt,
    );
  }

  /** Memory only: the database is already gone (the Context was deleted). */
  forgetAll(): void {
    this.epoch += 1;
    this.keys.clear();
    this.context = null;
  }

  /** Everything goes: the Context was created, migrated or restored. */
  clear(): void {
    this.forgetAll();
    const sql = this.sql();
    if (sql) {
      sql.exec('DELETE FROM _access_keys');
      sql.exec('DELETE FROM _access_context');
    }
  }
}
