import type { SchemaMigration } from './types.ts';

/**
 * Item-entity links written since the last merge (issue 38, store/entities.ts). A write batch's
 * links land here, in a table small enough that its entity-ordered index is a few dozen pages,
 * and move into `item_entities` in bulk once it holds `MERGE_LINKS_AT`. Written straight into
 * `item_entities`, each batch of 100 facts touched about 300 leaf pages of its entity-ordered
 * index (one per entity it names, each written at commit): at a million facts, a quarter of a
 * write's time in process. Readers take the union of both tables.
 */
export const recentLinksStep: SchemaMigration = {
  version: 18,
  name: 'recent item-entity links',
  up(sql) {
    sql.exec(`CREATE TABLE recent_links (
      item_seq INTEGER NOT NULL,
      entity_id INTEGER NOT NULL,
      PRIMARY KEY (item_seq, entity_id)
    ) WITHOUT ROWID`);
    sql.exec('CREATE INDEX recent_links_entity ON recent_links(entity_id, item_seq)');
  },
};
