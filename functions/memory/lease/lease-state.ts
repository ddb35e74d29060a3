/**
 * The lease record of one Context, kept in the ContextLease object's own SQLite.
 * Plain functions over `SqlStorage` so the Durable Object class stays a thin RPC shell.
 */

/** A granted lease: `token` is the fencing token the holder passes to ContextStore. */
export interface LeaseGrant {
  ok: true;
  holder: string;
  token: number;
  expires_at: number;
}

/** Someone else holds an unexpired lease. */
export interface LeaseBusy {
  ok: false;
  holder: string;
  expires_at: number;
}

export type LeaseResult = LeaseGrant | LeaseBusy;

interface LeaseRow extends Record<string, SqlStorageValue> {
  holder: string | null;
  token: number;
  expires_at: number;
}

export function ensureLeaseTable(sql: SqlStorage): void {
  // One row; `token` only ever grows, so a fencing token is never handed out twice.
  sql.exec(`CREATE TABLE IF NOT EXISTS lease (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    holder TEXT,
    token INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  )`);
  sql.exec(`INSERT OR IGNORE INTO lease (id, holder, token, expires_at) VALUES (1, NULL, 0, 0)`);
}

function readLease(sql: SqlStorage): LeaseRow {
  return sql.exec<LeaseRow>(`SELECT holder, token, expires_at FROM lease WHERE id = 1`).one();
}

/**
 * Grants the lease to `holder` unless another holder's lease is still live. Every grant,
 * including a re-grant to the same holder, gets a new, higher fencing token.
 */
export function acquireLease(
  sql: SqlStorage,
  holder: string,
  ttlMs: number,
  now: number,
): LeaseResult {
  const row = readLease(sql);
  if (row.holder !== null && row.holder !== holder && row.expires_at > now) {
    return { ok: false, holder: row.holder, expires_at: row.expires_at };
  }
  const token = row.token + 1;
  const expiresAt = now + ttlMs;
  sql.exec(
    `UPDATE lease SET holder = ?, token = ?, expires_at = ? WHERE id = 1`,
    holder,
    token,
    expiresAt,
  );
  return { ok: true, holder, token, expires_at: expiresAt };
}

/** Extends a live lease; false when the caller no longer holds it (expired and re-granted). */
export function renewLease(sql: SqlStorage, token: number, ttlMs: number, now: number): boolean {
  const row = readLease(sql);
  if (row.token !== token || row.holder === null || row.expires_at <= now) return false;
  sql.exec(`UPDATE lease SET expires_at = ? WHERE id = 1`, now + ttlMs);
  return true;
}

/** Releases the lease if `token` is still the current one; a stale holder releases nothing. */
export function releaseLease(sql: SqlStorage, token: number): boolean {
  const row = readLease(sql);
  if (row.token !== token || row.holder === null) return false;
  sql.exec(`UPDATE lease SET holder = NULL, expires_at = 0 WHERE id = 1`);
  return true;
}
