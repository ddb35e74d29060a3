import { scopesWithin } from '../scopes/grants.ts';
import { lensMatches, type Lens } from '../scopes/lens.ts';
import { hasColumn, hasTable } from './schema-facts.ts';
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

/**
 * The item that replaced a closed one (newest link first) among those `lens` may read, or null:
 * a reader is never handed the id of a fact outside its grant (links made before closing
 * required the successor to carry the closed fact's scopes could point at one).
 */
export function supersededBy(sql: SqlStorage, id: string, lens: Lens): string | null {
  if (!hasTable(sql, 'item_links')) return null;
  const rows = sql
    .exec<{ other: string }>(
      `SELECT from_id AS other, created_at FROM item_links
        WHERE to_id = ? AND relation IN (${CLOSED_BY_FROM.map(() => '?').join(', ')})
       UNION ALL
       SELECT to_id AS other, created_at FROM item_links
        WHERE from_id = ? AND relation IN (${CLOSED_INTO_TO.map(() => '?').join(', ')})
       ORDER BY created_at DESC`,
      id,
      ...CLOSED_BY_FROM,
      id,
      ...CLOSED_INTO_TO,
    )
    .toArray();
  for (const row of rows) {
    const other = sql
      .exec<{ scopes: string }>('SELECT scopes FROM items WHERE id = ?', row.other)
      .toArray()[0];
    if (other && lensMatches(lens, JSON.parse(other.scopes) as string[])) return row.other;
  }
  return null;
}

/** Adds `superseded_by` to closed records (open ones get null), as `lens` may see it. */
export function withSupersession(sql: SqlStorage, record: ItemRecord, lens: Lens): ItemRecord {
  return {
    ...record,
    superseded_by: record.valid_until ? supersededBy(sql, record.id, lens) : null,
  };
}

/**
 * Whether a writer may close `closed` in favour of `replacement`. Both halves protect someone:
 * the writer's write grant must cover every scope of the closed fact (nobody retires what they
 * may not write), and the replacement must carry every scope of the closed fact, so each reader
 * of the old value can read the new one (otherwise closing it would silently take a value away
 * from readers who cannot see its successor). Every path that closes facts goes through here.
 */
export function mayClose(
  writeGrant: readonly string[],
  closed: readonly string[],
  replacement: readonly string[],
): boolean {
  return scopesWithin(writeGrant, closed) && closed.every((s) => replacement.includes(s));
}
