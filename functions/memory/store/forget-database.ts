import { KeptUntilWrite } from './counts.ts';
import { forgetPostings } from './postings-cache.ts';
import { forgetSchema } from './schema-facts.ts';
import { forgetHubs } from './search-graph.ts';

/**
 * Drops everything kept in memory about a Context's database: schema facts, the postings index,
 * the graph's known hubs, and every value kept until the next write (counts, candidate reads,
 * document frequencies). Called when the database is wiped (destroy, import) or a schema step
 * runs: what was kept may describe tables that no longer exist, and a wiped database's change
 * count may start over.
 */
export function forgetDatabase(sql: SqlStorage): void {
  forgetSchema(sql);
  forgetPostings(sql);
  KeptUntilWrite.forget(sql);
  forgetHubs(sql);
}
