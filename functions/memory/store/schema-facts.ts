/**
 * Whether a Context's database has a column or a table that a schema step added, remembered per
 * database once seen. Steps only add (docs/storage-schema.md), so a column once present stays
 * until the whole database is wiped (`deleteAll`: destroy, import) or a step runs, and those paths
 * call `forgetSchema` (forget-database.ts). Asking SQLite each time cost a scan of `pragma_table_info` per check, two or three
 * on every search and fact read (docs/hot-path.md, ninth round). An answer of "absent" is never
 * remembered: the next step may add it.
 */

const seen = new WeakMap<SqlStorage, Set<string>>();

function remembered(sql: SqlStorage, key: string, check: () => boolean): boolean {
  const known = seen.get(sql);
  if (known?.has(key)) return true;
  if (!check()) return false;
  if (known) known.add(key);
  else seen.set(sql, new Set([key]));
  return true;
}

/** The database was wiped or rebuilt at another schema version: ask SQLite again. */
export function forgetSchema(sql: SqlStorage): void {
  seen.delete(sql);
}

export function hasColumn(sql: SqlStorage, table: string, column: string): boolean {
  return remembered(
    sql,
    `column ${table}.${column}`,
    () =>
      sql
        .exec<{ n: number }>(
          'SELECT COUNT(*) AS n FROM pragma_table_info(?) WHERE name = ?',
          table,
          column,
        )
        .one().n > 0,
  );
}

export function hasTable(sql: SqlStorage, table: string): boolean {
  return remembered(
    sql,
    `table ${table}`,
    () =>
      sql
        .exec<{ n: number }>(
          "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?",
          table,
        )
        .one().n > 0,
  );
}
