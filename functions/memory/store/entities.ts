import { speakerOf } from '../retrieval/text-analysis.ts';
import { jsonBatches } from './json-batches.ts';

/** Entity rows and item-entity edges, written at ingest and read by `hybrid_graph`. */

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
      `INSERT OR IGNORE INTO item_entities (item_seq, entity_id)
       SELECT j.value ->> 0, e.id FROM json_each(?) j JOIN entities e ON e.name = j.value ->> 1`,
      batch,
    );
  }
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
}

/** Entity ids linked to an item, in id order. */
export function entitiesOf(sql: SqlStorage, seq: number): number[] {
  return sql
    .exec<{
      entity_id: number;
    }>('SELECT entity_id FROM item_entities WHERE item_seq = ? ORDER BY entity_id', seq)
    .toArray()
    .map((r) => r.entity_id);
}

/** `entitiesOf` for several items in one statement (items without entities are absent). */
export function entitiesOfItems(sql: SqlStorage, seqs: readonly number[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  const rows = sql.exec<{ item_seq: number; entity_id: number }>(
    `SELECT item_seq, entity_id FROM item_entities
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
      'SELECT item_seq FROM item_entities WHERE entity_id = ? ORDER BY item_seq LIMIT ?',
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
