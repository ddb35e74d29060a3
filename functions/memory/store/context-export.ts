import { readSchemaVersion } from './schema/runner.ts';
import { hasTable } from './schema-facts.ts';

/**
 * The store side of backup: one Context's whole database read page by page (a cursor over each
 * table's rowid), so no RPC value and no string ever holds more than one page. The NDJSON lines
 * are built here; the Worker streams them (operations/context-backup.ts) and adds the checksum
 * trailer. docs/operations.md describes the format.
 */

export const EXPORT_FORMAT = 'engram-context-export';
/** 2: header counts, trailer counts + sha256. Version 1 (header, rows, `end` count) still imports. */
export const EXPORT_FORMAT_VERSION = 2;

export interface ExportHeader {
  type: 'header';
  format: typeof EXPORT_FORMAT;
  format_version: 1 | 2;
  context_id: string;
  schema_version: number;
  exported_at: string;
  /** Rows per table when the export began (a hint: the trailer carries what was written). */
  counts?: Record<string, number>;
}

export type JsonCell = string | number | null | { $base64: string };
export interface RowLine {
  type: 'row';
  table: string;
  row: Record<string, JsonCell>;
}

// Store-local state that must not travel to another Context: lease fencing, an import under way,
// and the response cache (derived data whose triggers would clear it during a replay anyway); and
// read-only views that hold no rows of their own (`items_fts_vocab`, an fts5vocab view); and the
// access cache, a copy of this deployment's control plane (keys, the Context row, rate windows).
export const SKIPPED_TABLES = new Set([
  '_fence',
  '_import',
  'response_cache',
  'items_fts_vocab',
  '_access_keys',
  '_access_context',
  '_rate_windows',
  // Derived from items and vectors (schema/vector-index.ts): rebuilt, never restored.
  '_counts',
  '_vector_gens',
  '_vector_lists',
  '_vector_postings',
  '_vector_blocks',
  '_vector_filters',
  '_kind_counts',
]);
// SQLite's own tables, the runtime's (`_cf_KV`) and the local simulator's (`__miniflare_do_name`).
const PLATFORM_PREFIXES = ['sqlite_', '_cf_', '__'];
const FTS_SHADOWS = ['_data', '_idx', '_content', '_docsize', '_config'];
/** The column an FTS row's rowid travels in (regular tables carry their own keys). */
export const ROWID = '__rowid';
/** Prefix of the paging key columns a page query adds in front of the row's own. */
const PAGE_KEY = '__page_key';

export interface TableInfo {
  name: string;
  virtual: boolean;
  /** Columns that order its rows for paging: `rowid`, or the key of a WITHOUT ROWID table. */
  key: string[];
}

function pagingKey(sql: SqlStorage, name: string, ddl: string): string[] {
  if (!/WITHOUT\s+ROWID\s*$/i.test(ddl)) return ['rowid'];
  return sql
    .exec<{ name: string; pk: number }>(`PRAGMA table_info(${quote(name)})`)
    .toArray()
    .filter((c) => c.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((c) => c.name);
}

export function exportTables(sql: SqlStorage): TableInfo[] {
  const rows = sql
    .exec<{ name: string; sql: string | null }>(
      `SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name`,
    )
    .toArray()
    .filter((r) => !PLATFORM_PREFIXES.some((p) => r.name.startsWith(p)));
  const virtual = rows.filter((r) =>
    (r.sql ?? '').toUpperCase().startsWith('CREATE VIRTUAL TABLE'),
  );
  const shadows = new Set(virtual.flatMap((v) => FTS_SHADOWS.map((s) => `${v.name}${s}`)));
  return rows
    .filter((r) => !SKIPPED_TABLES.has(r.name) && !shadows.has(r.name))
    .map((r) => ({
      name: r.name,
      virtual: virtual.some((v) => v.name === r.name),
      key: pagingKey(sql, r.name, r.sql ?? ''),
    }));
}

export const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

function toCell(value: SqlStorageValue): JsonCell {
  if (value instanceof ArrayBuffer) {
    let binary = '';
    for (const b of new Uint8Array(value)) binary += String.fromCharCode(b);
    return { $base64: btoa(binary) };
  }
  return value;
}

/**
 * Rows of a table. An FTS5 table's are counted in its `_docsize` shadow, one small row per
 * document: `COUNT(*)` on the table itself reads every document's text (most of an export
 * header's 3.1 s at a million facts, docs/scale.md), and the two counts are the same number.
 */
function rowCount(sql: SqlStorage, table: TableInfo): number {
  const docsize = `${table.name}_docsize`;
  const from = table.virtual && hasTable(sql, docsize) ? docsize : table.name;
  return sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM ${quote(from)}`).one().n;
}

export function tableCounts(sql: SqlStorage): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const t of exportTables(sql)) counts[t.name] = rowCount(sql, t);
  return counts;
}

export function exportHeader(sql: SqlStorage, contextId: string): ExportHeader {
  return {
    type: 'header',
    format: EXPORT_FORMAT,
    format_version: EXPORT_FORMAT_VERSION,
    context_id: contextId,
    schema_version: readSchemaVersion(sql),
    exported_at: new Date().toISOString(),
    counts: tableCounts(sql),
  };
}

/** Where the next page starts: a table (in export order) and the last key already sent. */
export interface ExportCursor {
  table: string;
  after: (string | number)[];
}

export interface ExportPage {
  /** Row lines, each one JSON text without its newline. */
  lines: string[];
  /** Rows per table in `lines`, so the Worker tallies the trailer without parsing them. */
  counts: Record<string, number>;
  next: ExportCursor | null;
}

/** Default page budget: far below the 32 MiB RPC limit and a small share of 128 MB. */
export const PAGE_BYTES = 1024 * 1024;
/** Rows one statement of a page reads at most (a page may pass its bytes by up to these). */
const STATEMENT_ROWS = 256;
/** A row line's length before a page has seen one. */
const GUESSED_LINE_BYTES = 256;

/**
 * An FTS5 table's rows read from its `_content` shadow (`c0, c1, …` as the table's columns), or
 * null for any other table. FTS5 answers `rowid > ?` on a full scan by walking its index from the
 * start: at a million facts each statement of a page took 150 ms at the end of the table (a page
 * 2.6 s, the table's pages about ten minutes), where the shadow, a plain table keyed by `id`,
 * takes 0.2 ms.
 */
function rowSource(sql: SqlStorage, table: TableInfo): string | null {
  if (!table.virtual || !hasTable(sql, `${table.name}_content`)) return null;
  const columns = sql
    .exec<{ name: string; cid: number }>(`PRAGMA table_info(${quote(table.name)})`)
    .toArray();
  return columns.map((c) => `c${c.cid} AS ${quote(c.name)}`).join(', ');
}

/**
 * Row lines from `cursor` on until about `maxBytes` of JSON (at least one row, so a single large
 * row still moves). Pages are read in rowid order, so rows written while an export runs land in
 * it only if they come after the cursor; each page on its own is consistent.
 */
export function exportPage(
  sql: SqlStorage,
  cursor: ExportCursor | null,
  maxBytes: number = PAGE_BYTES,
): ExportPage {
  const tables = exportTables(sql);
  let index = cursor ? tables.findIndex((t) => t.name === cursor.table) : 0;
  // A table dropped since the last page (a migration in between): go on with the next name.
  if (index < 0 && cursor) index = tables.findIndex((t) => t.name > cursor.table);
  let after = cursor && tables[index]?.name === cursor.table ? cursor.after : null;
  const lines: string[] = [];
  const counts: Record<string, number> = {};
  let bytes = 0;
  let written = 0;
  for (; index >= 0 && index < tables.length; index++, after = null) {
    const table = tables[index];
    if (!table) break;
    const keys = table.key.map(
      (k, i) => `${k === 'rowid' ? 'rowid' : quote(k)} AS "${PAGE_KEY}${i}"`,
    );
    const source = rowSource(sql, table);
    // The shadow's `id` is the FTS5 table's rowid, its one key.
    const order = source
      ? 'id'
      : table.key.map((k) => (k === 'rowid' ? 'rowid' : quote(k))).join(', ');
    const columns = source ? `id AS "${PAGE_KEY}0", ${source}` : `${keys.join(', ')}, *`;
    const from = quote(source ? `${table.name}_content` : table.name);
    // Statements of as many rows as the page has room for, each read to its end: a cursor
    // left half read keeps its read snapshot and holds WAL checkpoints back (fts.ts `ranked`).
    for (;;) {
      const where = after ? `WHERE (${order}) > (${after.map(() => '?').join(', ')})` : '';
      const average = written > 0 ? bytes / written : GUESSED_LINE_BYTES;
      const want = Math.max(1, Math.min(STATEMENT_ROWS, Math.ceil((maxBytes - bytes) / average)));
      const rows = sql
        .exec(
          `SELECT ${columns} FROM ${from} ${where} ORDER BY ${order} LIMIT ?`,
          ...(after ?? []),
          want,
        )
        .toArray();
      for (const raw of rows) {
        const row: Record<string, JsonCell> = {};
        const key: (string | number)[] = [];
        for (const [col, value] of Object.entries(raw)) {
          if (col.startsWith(PAGE_KEY)) key.push(value as string | number);
          else row[col] = toCell(value);
        }
        if (table.virtual) row[ROWID] = key[0] ?? null;
        // A PDF password is kept only until processing ends; it never goes into a backup.
        if (table.name === 'documents' && 'password' in row) row.password = null;
        const line = JSON.stringify({ type: 'row', table: table.name, row } satisfies RowLine);
        lines.push(line);
        counts[table.name] = (counts[table.name] ?? 0) + 1;
        bytes += line.length;
        written += 1;
        after = key;
      }
      if (bytes >= maxBytes && after) return { lines, counts, next: { table: table.name, after } };
      if (rows.length < want) break;
    }
  }
  return { lines, counts, next: null };
}
