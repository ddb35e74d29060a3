import type { ItemRecord } from './types.ts';

/**
 * The validity window of items (schema V2 columns `valid_from`, `valid_until`) and who closed
 * them (V4 `item_links`). A fact closed by `?infer=full` or consolidation stays stored and
 * readable by id, but it is history: searches, lists and the context block leave it out unless
 * the caller asks for superseded facts.
 */

/** Link relations whose `from_id` is the newer item and `to_id` the one it closed. */
const CLOSED_BY_FROM = ['supersedes', 'refines'];
/** Link relations whose `from_id` is the closed item and `to_id` the one it went into. */
const CLOSED_INTO_TO = ['merged_into'];

function hasColumn(sql: SqlStorage, table: string, column: string): boolean {
  return (
    sql
      .exec<{ n: number }>(
        'SELECT COUNT(*) AS n FROM pragma_table_info(?) WHERE name = ?',
        table,
        column,
      )
      .one().n > 0
  );
}

function hasTable(sql: SqlStorage, table: string): boolean {
  return (
    sql
      .exec<{ n: number }>(
        "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?",
        table,
      )
      .one().n > 0
  );
}

/** Whether this Context's `items` has the V2 validity columns (below V2 nothing is closed). */
export function hasValidity(sql: SqlStorage): boolean {
  return hasColumn(sql, 'items', 'valid_until');
}

/**
 * Whether this Context has the conversation-time step: `items.session_label`/`position` and the
 * two-column FTS index (`content`, `terms`).
 */
export function hasConversation(sql: SqlStorage): boolean {
  return hasColumn(sql, 'items', 'session_label');
}

/** The item that replaced a closed one (newest link first), or null. */
export function supersededBy(sql: SqlStorage, id: string): string | null {
  if (!hasTable(sql, 'item_links')) return null;
  const row = sql
    .exec<{ other: string }>(
      `SELECT from_id AS other, created_at FROM item_links
        WHERE to_id = ? AND relation IN (${CLOSED_BY_FROM.map(() => '?').join(', ')})
       UNION ALL
       SELECT to_id AS other, created_at FROM item_links
        WHERE from_id = ? AND relation IN (${CLOSED_INTO_TO.map(() => '?').join(', ')})
       ORDER BY created_at DESC LIMIT 1`,
      id,
      ...CLOSED_BY_FROM,
      id,
      ...CLOSED_INTO_TO,
    )
    .toArray()[0];
  return row?.other ?? null;
}

/** Adds `superseded_by` to closed records (open ones get null). */
export function withSupersession(sql: SqlStorage, record: ItemRecord): ItemRecord {
  return {
    ...record,
    superseded_by: record.valid_until ? supersededBy(sql, record.id) : null,
  };
}
