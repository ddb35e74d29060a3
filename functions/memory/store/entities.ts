/** Entity rows and item-entity edges, written at ingest and read by `hybrid_graph`. */
export function linkEntities(sql: SqlStorage, seq: number, names: string[]): void {
  for (const name of names) {
    const row = sql
      .exec<{ id: number }>(
        `INSERT INTO entities (name, display) VALUES (?, ?)
         ON CONFLICT (name) DO UPDATE SET display = entities.display RETURNING id`,
        name.toLowerCase(),
        name,
      )
      .one();
    sql.exec(
      'INSERT OR IGNORE INTO item_entities (item_seq, entity_id) VALUES (?, ?)',
      seq,
      row.id,
    );
  }
}

export function unlinkEntities(sql: SqlStorage, seq: number): void {
  sql.exec('DELETE FROM item_entities WHERE item_seq = ?', seq);
}

/** Entity ids linked to an item. */
export function entitiesOf(sql: SqlStorage, seq: number): number[] {
  return sql
    .exec<{ entity_id: number }>('SELECT entity_id FROM item_entities WHERE item_seq = ?', seq)
    .toArray()
    .map((r) => r.entity_id);
}

/**
 * Items sharing an entity with `entityIds`, with how many they share. Very common entities
 * (linked to more than `maxFanout` items) are skipped: they connect everything and mean nothing.
 */
export function neighbours(
  sql: SqlStorage,
  entityIds: number[],
  maxFanout = 200,
): Map<number, number> {
  const shared = new Map<number, number>();
  for (const entityId of entityIds) {
    const rows = sql
      .exec<{ item_seq: number }>(
        'SELECT item_seq FROM item_entities WHERE entity_id = ? LIMIT ?',
        entityId,
        maxFanout + 1,
      )
      .toArray();
    if (rows.length > maxFanout) continue;
    for (const r of rows) shared.set(r.item_seq, (shared.get(r.item_seq) ?? 0) + 1);
  }
  return shared;
}
