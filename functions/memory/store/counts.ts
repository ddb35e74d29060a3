import { hasTable } from './schema-facts.ts';
/**
 * Values a search derives from the database that stay true until its next write: the row counts
 * it needs (the Context's items; items lacking a vector of the query's model), what it reads of
 * candidate items (search-probe.ts) and document frequencies (fts.ts). `COUNT(*)` reads a whole index, and a search reads a few
 * hundred candidate rows, at every search; SQLite's `total_changes()`, which counts every row this
 * connection inserted, updated or deleted (triggers included), costs one trivial statement. A
 * Context's object is the only writer of its database, so an unchanged value means unchanged rows.
 * A rolled-back write still moves it, which only forgets early; a wiped database (destroy, import)
 * forgets explicitly (`KeptUntilWrite.forget`, from forget-database.ts), since its connection's count may start over.
 */

export function totalChanges(sql: SqlStorage): number {
  return sql.exec<{ n: number }>('SELECT total_changes() AS n').one().n;
}

/** One kind of value kept per database until its next write. */
export class KeptUntilWrite<T> {
  private readonly kept = new WeakMap<SqlStorage, { changes: number; value: T }>();
  private static readonly all: KeptUntilWrite<unknown>[] = [];

  private readonly make: () => T;

  constructor(make: () => T) {
    this.make = make;
    KeptUntilWrite.all.push(this as KeptUntilWrite<unknown>);
  }

  /** The kept value, made afresh when anything was written since (`changes`: totalChanges). */
  get(sql: SqlStorage, changes: number = totalChanges(sql)): T {
    const known = this.kept.get(sql);
    if (known && known.changes === changes) return known.value;
    const value = this.make();
    this.kept.set(sql, { changes, value });
    return value;
  }

  /** The value kept now, whether or not it is still current (for its size, or to clear it). */
  peek(sql: SqlStorage): T | undefined {
    return this.kept.get(sql)?.value;
  }

  /** Forgets what every kind keeps of `sql`. */
  static forget(sql: SqlStorage): void {
    for (const kind of KeptUntilWrite.all) kind.kept.delete(sql);
  }
}

/** Distinct counts kept per database (one per embedding model asked about, and the items). */
const MAX_COUNTS = 16;
const counts = new KeptUntilWrite(() => new Map<string, number>());

export function countedSinceLastWrite(sql: SqlStorage, key: string, count: () => number): number {
  const known = counts.get(sql);
  let value = known.get(key);
  if (value === undefined) {
    value = count();
    if (known.size >= MAX_COUNTS) known.clear();
    known.set(key, value);
  }
  return value;
}

/**
 * A row count kept by the `_counts` triggers (schema step 12: `items`, `vectors:<model id>`), or
 * `fallback()` below that step. One indexed row instead of counting a whole index after every
 * write: what lets a search after a bulk write at a million facts start at once.
 */
export function keptCount(sql: SqlStorage, key: string, fallback: () => number): number {
  if (!hasTable(sql, '_counts')) return fallback();
  const row = sql.exec<{ n: number }>('SELECT n FROM _counts WHERE key = ?', key).toArray()[0];
  return row?.n ?? 0;
}
