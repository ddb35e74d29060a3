import { lensMatches } from '../scopes/lens.ts';
import { getItemRow, toRecord, type ItemRow } from './items.ts';
import type { ItemRecord } from './types.ts';
import type { Lens } from '../scopes/lens.ts';
import { hasTable } from './schema-facts.ts';
import { withSupersession } from './validity.ts';

/**
 * Read-only walks over what the write paths record: a fact's version chain (V4 `item_links`)
 * and the entity names linked to items. Used by the REST routes, MCP tools and resources that
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

export interface EntitySummary {
  name: string;
  display: string;
  /** Current items inside the lens that mention the entity. */
  items: number;
}

/**
 * Entities mentioned by at least one current item inside the lens, by name; `prefix` narrows
 * by name start (case-insensitive). `next` is the last entity id scanned when more may follow.
 */
export function entityPage(
  sql: SqlStorage,
  input: { lens: string[][]; after: number; limit: number; prefix: string | null },
): { entities: EntitySummary[]; next: number | null } {
  const prefix = input.prefix === null ? null : input.prefix.toLowerCase();
  const rows = sql
    .exec<{ id: number; name: string; display: string }>(
      prefix === null
        ? 'SELECT id, name, display FROM entities WHERE id > ? ORDER BY id'
        : 'SELECT id, name, display FROM entities WHERE id > ? AND substr(name, 1, ?) = ? ORDER BY id',
      ...(prefix === null ? [input.after] : [input.after, prefix.length, prefix]),
    )
    .toArray();
  const entities: EntitySummary[] = [];
  for (const row of rows) {
    if (entities.length === input.limit) return { entities, next: row.id - 1 };
    const items = currentItemsOf(sql, row.id, input.lens).length;
    if (items > 0) entities.push({ name: row.name, display: row.display, items });
  }
  return { entities, next: null };
}

/** Current items inside the lens that mention entity `id`, oldest first. */
function currentItemsOf(sql: SqlStorage, id: number, lens: string[][]): ItemRecord[] {
  return sql
    .exec<ItemRow>(
      `SELECT items.* FROM item_entities JOIN items ON items.seq = item_entities.item_seq
        WHERE item_entities.entity_id = ? ORDER BY items.seq`,
      id,
    )
    .toArray()
    .map(toRecord)
    .filter((item) => !item.valid_until && lensMatches(lens, item.scopes));
}

/**
 * One entity by name (case-insensitive) with the first `limit` current items inside the lens that
 * mention it, or null. An entity that only items outside the lens mention is null too: it is
 * absent to this reader, as it is from `entityPage`.
 */
export function entityDetail(
  sql: SqlStorage,
  input: { lens: string[][]; name: string; limit: number },
): { entity: EntitySummary; items: ItemRecord[] } | null {
  const row = sql
    .exec<{ id: number; name: string; display: string }>(
      'SELECT id, name, display FROM entities WHERE name = ?',
      input.name.toLowerCase(),
    )
    .toArray()[0];
  if (!row) return null;
  const items = currentItemsOf(sql, row.id, input.lens);
  if (items.length === 0) return null;
  return {
    entity: { name: row.name, display: row.display, items: items.length },
    items: items.slice(0, input.limit).map((item) => withSupersession(sql, item, input.lens)),
  };
}
