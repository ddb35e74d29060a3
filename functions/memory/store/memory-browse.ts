import { getItemRow, toRecord } from './items.ts';
import type { ItemRecord } from './types.ts';
import type { Lens } from '../scopes/lens.ts';
import { hasTable } from './schema-facts.ts';
import { withSupersession } from './validity.ts';

/**
 * A read-only walk over what the write paths record: a fact's version chain (V4 `item_links`;
 * entity-browse.ts walks the entity names). Used by the REST routes, MCP tools and resources that
 * browse memory.
 */

/** Relations that make `from_id` a newer version of `to_id`. */
const VERSION_RELATIONS = ['supersedes', 'refines'];
/** A chain longer than this is cut: history is for reading, not for unbounded walks. */
const MAX_VERSIONS = 100;

function hasLinks(sql: SqlStorage): boolean {
  return hasTable(sql, 'item_links');
}

function neighbour(sql: SqlStorage, id: string, direction: 'older' | 'newer'): string | null {
  const marks = VERSION_RELATIONS.map(() => '?').join(', ');
  const row =
    direction === 'older'
      ? sql
          .exec<{ other: string }>(
            `SELECT to_id AS other FROM item_links WHERE from_id = ? AND relation IN (${marks})
             ORDER BY created_at DESC LIMIT 1`,
            id,
            ...VERSION_RELATIONS,
          )
          .toArray()[0]
      : sql
          .exec<{ other: string }>(
            `SELECT from_id AS other FROM item_links WHERE to_id = ? AND relation IN (${marks})
             ORDER BY created_at DESC LIMIT 1`,
            id,
            ...VERSION_RELATIONS,
          )
          .toArray()[0];
  return row?.other ?? null;
}

/**
 * Every version of the fact `id` belongs to, oldest first (the item itself included), or null
 * when there is no such item.
 */
export function itemHistory(sql: SqlStorage, id: string, lens: Lens): ItemRecord[] | null {
  const start = getItemRow(sql, id);
  if (!start) return null;
  if (!hasLinks(sql)) return [withSupersession(sql, toRecord(start), lens)];
  const seen = new Set<string>([id]);
  const older: string[] = [];
  for (let at = neighbour(sql, id, 'older'); at !== null && !seen.has(at);) {
    if (seen.size >= MAX_VERSIONS) break;
    seen.add(at);
    older.unshift(at);
    at = neighbour(sql, at, 'older');
  }
  const newer: string[] = [];
  for (let at = neighbour(sql, id, 'newer'); at !== null && !seen.has(at);) {
    if (seen.size >= MAX_VERSIONS) break;
    seen.add(at);
    newer.push(at);
    at = neighbour(sql, at, 'newer');
  }
  const out: ItemRecord[] = [];
  for (const versionId of [...older, id, ...newer]) {
    const row = getItemRow(sql, versionId);
    if (row) out.push(withSupersession(sql, toRecord(row), lens));
  }
  return out;
}
