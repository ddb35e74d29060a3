import type { MemoryFailure } from '../errors.ts';

/** Replays are kept 24 h per (principal, key) inside the Context's own database. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A pending record older than this is an abandoned attempt (its Worker died) and may be retaken. */
const PENDING_STALE_MS = 5 * 60 * 1000;

export type IdempotencyStart =
  | { state: 'proceed' }
  | { state: 'replay'; status: number; body: string }
  | { state: 'conflict'; failure: MemoryFailure };

interface Row {
  request_hash: string;
  state: string;
  status: number | null;
  body: string | null;
  created_at: number;
  [column: string]: SqlStorageValue;
}

export function beginIdempotent(
  sql: SqlStorage,
  principalId: string,
  key: string,
  requestHash: string,
  nowMs: number,
): IdempotencyStart {
  sql.exec('DELETE FROM idempotency WHERE created_at < ?', nowMs - IDEMPOTENCY_TTL_MS);
  const row = sql
    .exec<Row>(
      'SELECT request_hash, state, status, body, created_at FROM idempotency WHERE principal_id = ? AND key = ?',
      principalId,
      key,
    )
    .toArray()[0];
  if (row && !(row.state === 'pending' && row.created_at < nowMs - PENDING_STALE_MS)) {
    if (row.request_hash !== requestHash) {
      return {
        state: 'conflict',
        failure: {
          kind: 'conflict',
          detail: 'this Idempotency-Key was already used with a different request body',
        },
      };
    }
    if (row.state === 'pending') {
      return {
        state: 'conflict',
        failure: {
          kind: 'conflict',
          detail: 'a request with this Idempotency-Key is still in flight; retry it later',
        },
      };
    }
    return { state: 'replay', status: row.status ?? 200, body: row.body ?? '' };
  }
  sql.exec(
    `INSERT INTO idempotency (principal_id, key, request_hash, state, created_at) VALUES (?, ?, ?, 'pending', ?)
     ON CONFLICT (principal_id, key) DO UPDATE SET request_hash = excluded.request_hash, state = 'pending',
       status = NULL, body = NULL, created_at = excluded.created_at`,
    principalId,
    key,
    requestHash,
    nowMs,
  );
  return { state: 'proceed' };
}

export function completeIdempotent(
  sql: SqlStorage,
  principalId: string,
  key: string,
  status: number,
  body: string,
): void {
  sql.exec(
    `UPDATE idempotency SET state = 'done', status = ?, body = ? WHERE principal_id = ? AND key = ?`,
    status,
    body,
    principalId,
    key,
  );
}

/** A failed attempt releases its key so that the client may retry with it. */
export function releaseIdempotent(sql: SqlStorage, principalId: string, key: string): void {
  sql.exec(
    `DELETE FROM idempotency WHERE principal_id = ? AND key = ? AND state = 'pending'`,
    principalId,
    key,
  );
}
