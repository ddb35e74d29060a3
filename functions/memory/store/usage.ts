import { hasTable } from './schema-facts.ts';
import type { StoreUsage } from './types.ts';

/** Row counts of one Context, as reported in the Context's `usage`. */
export function usage(sql: SqlStorage): StoreUsage {
  // Kept by triggers from schema step 15 (a few rows); counted from `items` before it.
  const byKindQuery = hasTable(sql, '_kind_counts')
    ? 'SELECT kind, n FROM _kind_counts'
    : 'SELECT kind, COUNT(*) AS n FROM items GROUP BY kind';
  const byKind = new Map(
    sql
      .exec<{ kind: string; n: number }>(byKindQuery)
      .toArray()
      .map((r) => [r.kind, r.n]),
  );
  return {
    facts: byKind.get('fact') ?? 0,
    // The documents table exists from schema V2 on; below it nothing was uploaded.
    documents: hasTable(sql, 'documents')
      ? sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM documents').one().n
      : 0,
    chunks: byKind.get('chunk') ?? 0,
    reflections: byKind.get('reflection') ?? 0,
    sessions: sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM sessions').one().n,
    turns: sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM turns').one().n,
  };
}
