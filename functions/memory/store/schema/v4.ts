import type { SchemaMigration } from './types.ts';

/**
 * V4 (additive), the model-backed paths: links between items (a fact superseding, refining or
 * merged into another; a reflection and its sources), the token usage of every model call, the
 * response cache with triggers that empty it on any write, and the extraction state of turns.
 */
export const v4: SchemaMigration = {
  version: 4,
  name: 'item links, model usage, response cache, turn extraction',
  up(sql) {
    sql.exec(`CREATE TABLE item_links (
      from_id TEXT NOT NULL,
      to_id TEXT NOT NULL,
      relation TEXT NOT NULL,
      created_at TEXT NOT NULL,
      PRIMARY KEY (from_id, to_id, relation)
    ) WITHOUT ROWID`);
    sql.exec('CREATE INDEX item_links_to ON item_links(to_id)');
    sql.exec(`CREATE TABLE model_usage (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      operation TEXT NOT NULL,
      provider TEXT NOT NULL,
      model TEXT NOT NULL,
      input_tokens INTEGER NOT NULL,
      output_tokens INTEGER NOT NULL,
      source TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`);
    sql.exec(`CREATE TABLE response_cache (
      key TEXT PRIMARY KEY,
      body TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`);
    // Any write to the Context's memory empties the cache, whichever code path made it.
    for (const [table, events] of [
      ['items', ['INSERT', 'UPDATE', 'DELETE']],
      ['turns', ['INSERT', 'UPDATE', 'DELETE']],
      ['sessions', ['DELETE']],
    ] as const) {
      for (const event of events) {
        sql.exec(
          `CREATE TRIGGER response_cache_clear_${table}_${event.toLowerCase()} AFTER ${event} ON ${table}
           BEGIN DELETE FROM response_cache; END`,
        );
      }
    }
    sql.exec(`CREATE TABLE turn_extractions (
      turn_id TEXT PRIMARY KEY,
      status TEXT NOT NULL,
      facts INTEGER NOT NULL DEFAULT 0,
      detail TEXT,
      updated_at TEXT NOT NULL
    )`);
  },
};
