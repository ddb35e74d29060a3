import type { MemoryFailure, Result } from '../errors.ts';
import { fail, ok } from '../errors.ts';
import { newId } from './ids.ts';
import type { JsonObject, SessionRecord, TurnRecord } from './types.ts';

interface SessionRow {
  id: string;
  metadata: string | null;
  created_at: string;
  updated_at: string;
  turn_count: number;
  [column: string]: SqlStorageValue;
}

function toSession(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as JsonObject),
    created_at: row.created_at,
    updated_at: row.updated_at,
    turn_count: row.turn_count,
  };
}

const SELECT_SESSION = `SELECT s.id, s.metadata, s.created_at, s.updated_at,
  (SELECT COUNT(*) FROM turns t WHERE t.session_id = s.id) AS turn_count FROM sessions s`;

function missing(id: string): MemoryFailure {
  return { kind: 'not-found', detail: `session ${id} does not exist in this Context` };
}

export function createSession(
  sql: SqlStorage,
  input: { id: string | null; metadata: JsonObject | null },
  now: string,
): Result<SessionRecord> {
  const id = input.id ?? newId('session');
  if (sql.exec('SELECT 1 FROM sessions WHERE id = ?', id).toArray().length > 0) {
    return fail({ kind: 'conflict', detail: `session ${id} already exists` });
  }
  sql.exec(
    'INSERT INTO sessions (id, metadata, created_at, updated_at) VALUES (?, ?, ?, ?)',
    id,
    input.metadata === null ? null : JSON.stringify(input.metadata),
    now,
    now,
  );
  return ok({ id, metadata: input.metadata, created_at: now, updated_at: now, turn_count: 0 });
}

export function getSession(sql: SqlStorage, id: string): Result<SessionRecord> {
  const row = sql.exec<SessionRow>(`${SELECT_SESSION} WHERE s.id = ?`, id).toArray()[0];
  return row ? ok(toSession(row)) : fail(missing(id));
}

export function listSessions(
  sql: SqlStorage,
  limit: number,
  offset: number,
): { sessions: SessionRecord[]; total: number } {
  const total = sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM sessions').one().n;
  const rows = sql
    .exec<SessionRow>(
      `${SELECT_SESSION} ORDER BY s.created_at, s.id LIMIT ? OFFSET ?`,
      limit,
      offset,
    )
    .toArray();
  return { sessions: rows.map(toSession), total };
}

/** Deletes a session and its turns (facts written from it keep existing). */
export function deleteSession(sql: SqlStorage, id: string): Result<null> {
  const deleted = sql.exec('DELETE FROM sessions WHERE id = ?', id).rowsWritten;
  if (deleted === 0) return fail(missing(id));
  sql.exec('DELETE FROM turns WHERE session_id = ?', id);
  return ok(null);
}

export function appendTurn(
  sql: SqlStorage,
  input: { sessionId: string; role: string; content: string },
  now: string,
): Result<TurnRecord> {
  if (sql.exec('SELECT 1 FROM sessions WHERE id = ?', input.sessionId).toArray().length === 0) {
    return fail(missing(input.sessionId));
  }
  const id = newId('turn');
  sql.exec(
    'INSERT INTO turns (id, session_id, role, content, created_at) VALUES (?, ?, ?, ?, ?)',
    id,
    input.sessionId,
    input.role,
    input.content,
    now,
  );
  sql.exec('UPDATE sessions SET updated_at = ? WHERE id = ?', now, input.sessionId);
  return ok({
    id,
    session_id: input.sessionId,
    role: input.role,
    content: input.content,
    created_at: now,
  });
}

export function listTurns(
  sql: SqlStorage,
  input: { sessionId: string; limit: number; offset: number; newestFirst?: boolean },
): Result<{ turns: TurnRecord[]; total: number }> {
  if (sql.exec('SELECT 1 FROM sessions WHERE id = ?', input.sessionId).toArray().length === 0) {
    return fail(missing(input.sessionId));
  }
  const total = sql
    .exec<{ n: number }>('SELECT COUNT(*) AS n FROM turns WHERE session_id = ?', input.sessionId)
    .one().n;
  const order = input.newestFirst ? 'DESC' : 'ASC';
  const turns = sql
    .exec<{ id: string; session_id: string; role: string; content: string; created_at: string }>(
      `SELECT id, session_id, role, content, created_at FROM turns WHERE session_id = ? ORDER BY seq ${order} LIMIT ? OFFSET ?`,
      input.sessionId,
      input.limit,
      input.offset,
    )
    .toArray();
  return ok({ turns, total });
}
