import type { MemoryFailure, Result } from '../errors.ts';
import { fail, ok } from '../errors.ts';
import { scopesWithin } from '../scopes/grants.ts';
import { lensMatches, type Lens } from '../scopes/lens.ts';
import { newId } from './ids.ts';
import { hasColumn } from './schema-facts.ts';
import type { JsonObject, SessionRecord, TurnRecord } from './types.ts';

/**
 * Sessions and their turns. A session carries scopes like a fact (schema step `session-scopes`);
 * every read takes the caller's read lens and answers "does not exist" for a session outside it,
 * so a session's id, metadata and turns never reach a caller who may not read it.
 */

interface SessionRow {
  id: string;
  metadata: string | null;
  scopes: string;
  created_at: string;
  updated_at: string;
  turn_count: number;
  [column: string]: SqlStorageValue;
}

function toSession(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    scopes: JSON.parse(row.scopes) as string[],
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as JsonObject),
    created_at: row.created_at,
    updated_at: row.updated_at,
    turn_count: row.turn_count,
  };
}

/** Before the `session-scopes` step every session is unscoped (read as `[]`). */
function scopesColumn(sql: SqlStorage): string {
  return hasColumn(sql, 'sessions', 'scopes') ? 's.scopes' : `'[]'`;
}

/**
 * A turn as SQLite returns it: `TurnRecord` re-mapped as a type alias, which `exec` accepts where
 * an interface (no index signature) is not, without restating its fields.
 */
export type TurnRow = { [K in keyof TurnRecord]: TurnRecord[K] };

/** Before the `turn-time` step a turn was said when it was stored. */
export function turnTimeColumn(sql: SqlStorage): string {
  return hasColumn(sql, 'turns', 'valid_from') ? 'COALESCE(valid_from, created_at)' : 'created_at';
}

function selectSession(sql: SqlStorage): string {
  return `SELECT s.id, s.metadata, ${scopesColumn(sql)} AS scopes, s.created_at, s.updated_at,
  (SELECT COUNT(*) FROM turns t WHERE t.session_id = s.id) AS turn_count FROM sessions s`;
}

function missing(id: string): MemoryFailure {
  return { kind: 'not-found', detail: `session ${id} does not exist in this Context` };
}

/** The session's scopes, or null when there is no such session. */
function scopesOf(sql: SqlStorage, id: string): string[] | null {
  const row = sql
    .exec<{
      scopes: string;
    }>(`SELECT ${scopesColumn(sql)} AS scopes FROM sessions s WHERE s.id = ?`, id)
    .toArray()[0];
  return row ? (JSON.parse(row.scopes) as string[]) : null;
}

/**
 * The check of a change to a session (`verb`: adding a turn, deleting it), as for facts: a
 * session the caller can neither read nor change does not exist; one they can read but not
 * change is 403.
 */
function mayChange(
  sql: SqlStorage,
  id: string,
  access: { lens: Lens; grant: readonly string[]; verb: string },
): MemoryFailure | null {
  const scopes = scopesOf(sql, id);
  if (scopes === null) return missing(id);
  const changeable = scopesWithin(access.grant, scopes);
  if (changeable) return null;
  if (!lensMatches(access.lens, scopes)) return missing(id);
  return {
    kind: 'forbidden',
    detail: `session ${id} has scopes outside this key's ${access.verb} grant`,
  };
}

export function createSession(
  sql: SqlStorage,
  input: { id: string | null; metadata: JsonObject | null; scopes: string[] },
  now: string,
): Result<SessionRecord> {
  const id = input.id ?? newId('session');
  if (sql.exec('SELECT 1 FROM sessions WHERE id = ?', id).toArray().length > 0) {
    // Names nothing but the id the caller chose; the session's scopes and metadata stay hidden.
    return fail({ kind: 'conflict', detail: `session id ${id} is taken; choose another id` });
  }
  sql.exec(
    'INSERT INTO sessions (id, metadata, scopes, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    id,
    input.metadata === null ? null : JSON.stringify(input.metadata),
    JSON.stringify(input.scopes),
    now,
    now,
  );
  return ok({
    id,
    scopes: input.scopes,
    metadata: input.metadata,
    created_at: now,
    updated_at: now,
    turn_count: 0,
  });
}

export function getSession(sql: SqlStorage, id: string, lens: Lens): Result<SessionRecord> {
  const row = sql.exec<SessionRow>(`${selectSession(sql)} WHERE s.id = ?`, id).toArray()[0];
  if (!row) return fail(missing(id));
  const session = toSession(row);
  return lensMatches(lens, session.scopes) ? ok(session) : fail(missing(id));
}

/** A page of the sessions `lens` sees, oldest first; `total` counts only those. */
export function listSessions(
  sql: SqlStorage,
  input: { limit: number; offset: number; lens: Lens },
): { sessions: SessionRecord[]; total: number } {
  // Scopes are JSON, so visibility is decided here rather than in SQL; only ids and scopes are
  // read for the whole table, the page's rows in full.
  const visible = sql
    .exec<{ id: string; scopes: string }>(
      `SELECT s.id, ${scopesColumn(sql)} AS scopes FROM sessions s ORDER BY s.created_at, s.id`,
    )
    .toArray()
    .filter((r) => lensMatches(input.lens, JSON.parse(r.scopes) as string[]))
    .map((r) => r.id);
  const page = visible.slice(input.offset, input.offset + input.limit);
  const sessions: SessionRecord[] = [];
  for (const id of page) {
    const row = sql.exec<SessionRow>(`${selectSession(sql)} WHERE s.id = ?`, id).toArray()[0];
    if (row) sessions.push(toSession(row));
  }
  return { sessions, total: visible.length };
}

/** Deletes a session and its turns (facts written from it keep existing). */
export function deleteSession(
  sql: SqlStorage,
  id: string,
  access: { lens: Lens; forgetGrant: readonly string[] },
): Result<null> {
  const denied = mayChange(sql, id, {
    lens: access.lens,
    grant: access.forgetGrant,
    verb: 'memory:forget',
  });
  if (denied) return fail(denied);
  sql.exec('DELETE FROM sessions WHERE id = ?', id);
  sql.exec('DELETE FROM turns WHERE session_id = ?', id);
  return ok(null);
}

export function appendTurn(
  sql: SqlStorage,
  input: {
    sessionId: string;
    role: string;
    content: string;
    /** ISO 8601 (UTC); the append time when absent. */
    validFrom?: string;
    access: { lens: Lens; writeGrant: readonly string[] };
  },
  now: string,
): Result<TurnRecord> {
  const denied = mayChange(sql, input.sessionId, {
    lens: input.access.lens,
    grant: input.access.writeGrant,
    verb: 'memory:write',
  });
  if (denied) return fail(denied);
  const id = newId('turn');
  const validFrom = input.validFrom ?? now;
  if (turnTimeColumn(sql) === 'created_at') {
    sql.exec(
      'INSERT INTO turns (id, session_id, role, content, created_at) VALUES (?, ?, ?, ?, ?)',
      id,
      input.sessionId,
      input.role,
      input.content,
      now,
    );
  } else {
    sql.exec(
      'INSERT INTO turns (id, session_id, role, content, created_at, valid_from) VALUES (?, ?, ?, ?, ?, ?)',
      id,
      input.sessionId,
      input.role,
      input.content,
      now,
      validFrom,
    );
  }
  sql.exec('UPDATE sessions SET updated_at = ? WHERE id = ?', now, input.sessionId);
  return ok({
    id,
    session_id: input.sessionId,
    role: input.role,
    content: input.content,
    created_at: now,
    valid_from: turnTimeColumn(sql) === 'created_at' ? now : validFrom,
  });
}

/** Turns of a session `lens` sees (oldest first, or newest first for recent context). */
export function listTurns(
  sql: SqlStorage,
  input: { sessionId: string; limit: number; offset: number; newestFirst?: boolean; lens: Lens },
): Result<{ turns: TurnRecord[]; total: number }> {
  const scopes = scopesOf(sql, input.sessionId);
  if (scopes === null || !lensMatches(input.lens, scopes)) return fail(missing(input.sessionId));
  const total = sql
    .exec<{ n: number }>('SELECT COUNT(*) AS n FROM turns WHERE session_id = ?', input.sessionId)
    .one().n;
  const order = input.newestFirst ? 'DESC' : 'ASC';
  const turns = sql
    .exec<TurnRow>(
      `SELECT id, session_id, role, content, created_at, ${turnTimeColumn(sql)} AS valid_from FROM turns WHERE session_id = ? ORDER BY seq ${order} LIMIT ? OFFSET ?`,
      input.sessionId,
      input.limit,
      input.offset,
    )
    .toArray();
  return ok({ turns, total });
}
