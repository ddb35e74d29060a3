import { speakerOf } from '../retrieval/text-analysis.ts';
import { jsonBatches } from './json-batches.ts';
import { hasTable } from './schema-facts.ts';

/**
 * Entity rows and item-entity edges, written at ingest and read by `hybrid_graph` and the entity
 * browse. From schema step 18 a write's edges go to `recent_links` and move into `item_entities`
 * in bulk (`mergeRecentLinks`): the entity-ordered index of a small table is a few dozen pages,
 * where `item_entities`' took one leaf page per entity a batch names. Every read takes both.
 */

/** Links `recent_links` holds before a write moves them all into `item_entities`. */
export const MERGE_LINKS_AT = 10_000;

/** Where a write's edges go: `recent_links` once schema step 18 made it. */
function linkTable(sql: SqlStorage): 'recent_links' | 'item_entities' {
  return hasTable(sql, 'recent_links') ? 'recent_links' : 'item_entities';
}

/**
 * Links a batch of items to their entities in two statements per JSON chunk. Entities are created
 * in the order they are met (item by item, name by name), and a name met twice keeps its first
 * display: the same rows and ids as upserting them one at a time.
 */
export function linkEntities(
  sql: SqlStorage,
  links: readonly { seq: number; names: readonly string[] }[],
): void {
  const pairs = links.flatMap((l) => l.names.map((name) => [l.seq, name.toLowerCase(), name]));
  for (const batch of jsonBatches(pairs)) {
    sql.exec(
      `INSERT INTO entities (name, display)
       SELECT value ->> 1, value ->> 2 FROM json_each(?) WHERE true
       ON CONFLICT (name) DO NOTHING`,
      batch,
    );
    sql.exec(
      `INSERT OR IGNORE INTO ${linkTable(sql)} (item_seq, entity_id)
       SELECT j.value ->> 0, e.id FROM json_each(?) j JOIN entities e ON e.name = j.value ->> 1`,
      batch,
    );
  }
  if (linkTable(sql) === 'recent_links' && pairs.length > 0) mergeRecentLinks(sql, MERGE_LINKS_AT);
}

/**
 * Moves every recent link into `item_entities` once there are `atLeast` of them, in item order
 * (its primary key's: appended at its end), in the write's transaction. Returns how many moved.
 */
export function mergeRecentLinks(sql: SqlStorage, atLeast: number): number {
  if (!hasTable(sql, 'recent_links')) return 0;
  const { n } = sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM recent_links').one();
  if (n === 0 || n < atLeast) return 0;
  sql.exec(
    `INSERT OR IGNORE INTO item_entities (item_seq, entity_id)
     SELECT item_seq, entity_id FROM recent_links ORDER BY item_seq, entity_id`,
  );
  sql.exec('DELETE FROM recent_links');
  return n;
}

/** Deletes per database since its object woke: an entity can stop being a hub only then. */
const unlinks = new WeakMap<SqlStorage, number>();

/** How many items' links were deleted since the object woke (search-graph.ts keeps hubs by it). */
export function unlinkCount(sql: SqlStorage): number {
  return unlinks.get(sql) ?? 0;
}

export function unlinkEntities(sql: SqlStorage, seq: number): void {
  unlinks.set(sql, unlinkCount(sql) + 1);
  sql.exec('DELETE FROM item_entities WHERE item_seq = ?', seq);
  if (hasTable(sql, 'recent_links')) sql.exec('DELETE FROM recent_links WHERE item_seq = ?', seq);
}

/** Both link tables as one, for a read (`item_entities` alone before step 18). */
export function linksSource(sql: SqlStorage): string {
  return hasTable(sql, 'recent_links')
    ? '(SELECT item_seq, entity_id FROM item_entities UNION ALL SELECT item_seq, entity_id FROM recent_links)'
    : 'item_entities';
}

/** Entity ids linked to an item, in id order. */
export function entitiesOf(sql: SqlStorage, seq: number): number[] {
  return sql
    .exec<{
      entity_id: number;
    }>(`SELECT entity_id FROM ${linksSource(sql)} WHERE item_seq = ? ORDER BY entity_id`, seq)
    .toArray()
    .map((r) => r.entity_id);
}

/** `entitiesOf` for several items in one statement (items without entities are absent). */
export function entitiesOfItems(sql: SqlStorage, seqs: readonly number[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  const rows = sql.exec<{ item_seq: number; entity_id: number }>(
    `SELECT item_seq, entity_id FROM ${linksSource(sql)}
     WHERE item_seq IN (SELECT value FROM json_each(?)) ORDER BY item_seq, entity_id`,
    JSON.stringify(seqs),
  );
  for (const row of rows) {
    const ids = out.get(row.item_seq);
    if (ids) ids.push(row.entity_id);
    else out.set(row.item_seq, [row.entity_id]);
  }
  return out;
}

/**
 * Items linked to an entity, or null when it is linked to more than `maxFanout` items: such an
 * entity connects everything and means nothing.
 */
export function itemsOfEntity(sql: SqlStorage, entityId: number, maxFanout = 200): number[] | null {
  const rows = sql
    .exec<{ item_seq: number }>(
      `SELECT item_seq FROM ${linksSource(sql)} WHERE entity_id = ? ORDER BY item_seq LIMIT ?`,
      entityId,
      maxFanout + 1,
    )
    .toArray();
  return rows.length > maxFanout ? null : rows.map((r) => r.item_seq);
}

/** Ids of the entities with these (lower-cased) names. */
export function entityIdsByName(sql: SqlStorage, names: string[]): number[] {
  const unique = [...new Set(names.map((n) => n.toLowerCase()))].slice(0, 60);
  if (unique.length === 0) return [];
  return sql
    .exec<{ id: number }>(
      `SELECT id FROM entities WHERE name IN (${unique.map(() => '?').join(', ')})`,
      ...unique,
    )
    .toArray()
    .map((r) => r.id);
}

/** The first of `rows` (chat turns, nearest first) spoken by someone other than `speaker`. */
function otherSpeakerIn(rows: readonly { content: string }[], speaker: string): string | null {
  for (const row of rows) {
    const other = speakerOf(row.content);
    if (other && other.name !== speaker) return other.name;
  }
  return null;
}

/**
 * The speaker a chat turn answers: the nearest earlier turn of the same session spoken by someone
 * else (by `position`, on the session index). Null when there is none or none has a prefix.
 */
export function addresseeOf(
  sql: SqlStorage,
  session: string,
  position: number,
  speaker: string,
): string | null {
  const rows = sql
    .exec<{ content: string }>(
      `SELECT content FROM items WHERE session_label = ? AND position < ?
       ORDER BY position DESC LIMIT 6`,
      session,
      position,
    )
    .toArray();
  return otherSpeakerIn(rows, speaker);
}

/**
 * Who answers a chat turn among the turns of its session already written after it: the other
 * speaker of a session's opening turns ("Morning Sammy!" opens a day), which `addresseeOf` cannot
 * name.
 */
export function answeredBy(
  sql: SqlStorage,
  session: string,
  position: number,
  speaker: string,
): string | null {
  const rows = sql
    .exec<{ content: string }>(
      `SELECT content FROM items WHERE session_label = ? AND position > ?
       ORDER BY position LIMIT 6`,
      session,
      position,
    )
    .toArray();
  return otherSpeakerIn(rows, speaker);
}
