/**
 * Fencing for writes made under a ContextLease: the store remembers the highest lease token it
 * has seen and refuses any lower one, so a holder whose lease expired (and was re-granted to
 * someone else, who has already written with a higher token) cannot apply anything.
 */

export interface FenceRefused {
  ok: false;
  reason: 'stale-fencing-token';
  token: number;
  highest: number;
}

export type FenceResult = { ok: true } | FenceRefused;

export function ensureFenceTable(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS _fence (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    highest_token INTEGER NOT NULL
  )`);
}

/** Accepts `token` when it is at least the highest seen, and remembers it. */
export function checkFence(sql: SqlStorage, token: number): FenceResult {
  ensureFenceTable(sql);
  const row = sql
    .exec<{ highest_token: number }>(`SELECT highest_token FROM _fence WHERE id = 1`)
    .toArray()[0];
  const highest = row?.highest_token ?? 0;
  if (token < highest) return { ok: false, reason: 'stale-fencing-token', token, highest };
  sql.exec(
    `INSERT INTO _fence (id, highest_token) VALUES (1, ?)
     ON CONFLICT (id) DO UPDATE SET highest_token = excluded.highest_token`,
    token,
  );
  return { ok: true };
}
