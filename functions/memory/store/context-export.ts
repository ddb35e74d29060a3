import { fail, ok, type Result } from '../errors.ts';
import { applyMigrations, readSchemaVersion } from './schema/runner.ts';
import { LATEST_SCHEMA_VERSION } from './schema/index.ts';

/**
 * Backup and restore of one Context's whole database as NDJSON: a header line, one line per row
 * of every table (FTS5 rows with their rowid; BLOBs as base64), and an end line with the count.
 * Import replays the rows into an empty Context at the export's schema version, so a backup taken
 * before an upgrade restores as it was and is then migrated by the scheduler like any Context.
 */

export const EXPORT_FORMAT = 'engram-context-export';

export interface ExportHeader {
  type: 'header';
  format: typeof EXPORT_FORMAT;
  format_version: 1;
  context_id: string;
  schema_version: number;
  exported_at: string;
}

type JsonCell = string | number | null | { $base64: string };
interface RowLine {
  type: 'row';
  table: string;
  row: Record<string, JsonCell>;
}

// Store-local state that must not travel to another Context: lease fencing; and read-only views
// that hold no rows of their own (`items_fts_vocab`, an fts5vocab view over `items_fts`).
const SKIPPED = new Set(['_fence', 'items_fts_vocab']);
// SQLite's own tables, the runtime's (`_cf_KV`) and the local simulator's (`__miniflare_do_name`).
const PLATFORM_PREFIXES = ['sqlite_', '_cf_', '__'];
const FTS_SHADOWS = ['_data', '_idx', '_content', '_docsize', '_config'];
const ROWID = '__rowid';

interface TableInfo {
  name: string;
  virtual: boolean;
}

function tables(sql: SqlStorage): TableInfo[] {
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
    .filter((r) => !SKIPPED.has(r.name) && !shadows.has(r.name))
    .map((r) => ({ name: r.name, virtual: virtual.some((v) => v.name === r.name) }));
}

function toCell(value: SqlStorageValue): JsonCell {
  if (value instanceof ArrayBuffer) {
    let binary = '';
    for (const b of new Uint8Array(value)) binary += String.fromCharCode(b);
    return { $base64: btoa(binary) };
  }
  return value;
}

function fromCell(cell: JsonCell): SqlStorageValue {
  if (cell !== null && typeof cell === 'object') {
    return Uint8Array.from(atob(cell.$base64), (c) => c.charCodeAt(0)).buffer;
  }
  return cell;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The whole database as NDJSON, read in one synchronous pass (a consistent snapshot). */
export function exportNdjson(sql: SqlStorage, contextId: string): string {
  const header: ExportHeader = {
    type: 'header',
    format: EXPORT_FORMAT,
    format_version: 1,
    context_id: contextId,
    schema_version: readSchemaVersion(sql),
    exported_at: new Date().toISOString(),
  };
  const lines = [JSON.stringify(header)];
  let count = 0;
  for (const table of tables(sql)) {
    const select = table.virtual
      ? `SELECT rowid AS ${ROWID}, * FROM ${quote(table.name)}`
      : `SELECT * FROM ${quote(table.name)}`;
    for (const raw of sql.exec(select)) {
      const row: Record<string, JsonCell> = {};
      for (const [col, value] of Object.entries(raw)) row[col] = toCell(value);
      // A PDF password is kept only until processing ends; it never goes into a backup.
      if (table.name === 'documents' && 'password' in row) row.password = null;
      lines.push(JSON.stringify({ type: 'row', table: table.name, row } satisfies RowLine));
      count++;
    }
  }
  lines.push(JSON.stringify({ type: 'end', rows: count }));
  return `${lines.join('\n')}\n`;
}

export type ParsedExport =
  { ok: true; header: ExportHeader; rows: RowLine[] } | { ok: false; error: string };

/** Validates a whole export before anything is written. */
export function parseExport(text: string): ParsedExport {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const values: unknown[] = [];
  for (const [i, line] of lines.entries()) {
    try {
      values.push(JSON.parse(line));
    } catch {
      return { ok: false, error: `line ${i + 1} is not JSON` };
    }
  }
  const header = values[0] as Partial<ExportHeader> | undefined;
  if (header?.type !== 'header' || header.format !== EXPORT_FORMAT || header.format_version !== 1) {
    return { ok: false, error: `line 1 is not an ${EXPORT_FORMAT} v1 header` };
  }
  const version = header.schema_version;
  if (
    typeof version !== 'number' ||
    !Number.isInteger(version) ||
    version < 1 ||
    version > LATEST_SCHEMA_VERSION
  ) {
    return {
      ok: false,
      error: `schema_version must be an integer from 1 to ${LATEST_SCHEMA_VERSION}`,
    };
  }
  const rows: RowLine[] = [];
  let ended = false;
  for (const [i, value] of values.slice(1).entries()) {
    const line = value as { type?: unknown; table?: unknown; row?: unknown; rows?: unknown };
    if (line.type === 'end') {
      if (line.rows !== rows.length)
        return {
          ok: false,
          error: `end line counts ${String(line.rows)} rows, found ${rows.length}`,
        };
      ended = true;
      continue;
    }
    if (
      ended ||
      line.type !== 'row' ||
      typeof line.table !== 'string' ||
      typeof line.row !== 'object' ||
      line.row === null
    ) {
      return { ok: false, error: `line ${i + 2} is not a row line` };
    }
    rows.push(line as RowLine);
  }
  if (!ended) return { ok: false, error: 'the export has no end line (truncated?)' };
  return { ok: true, header: header as ExportHeader, rows };
}

/** Tables other than `_meta` that hold a row: none for a Context fresh from creation. */
export function nonEmptyTables(sql: SqlStorage): string[] {
  return tables(sql)
    .filter((t) => t.name !== '_meta')
    .filter((t) => sql.exec(`SELECT 1 FROM ${quote(t.name)} LIMIT 1`).toArray().length > 0)
    .map((t) => t.name);
}

/**
 * Rebuilds the database from a parsed export: wipes it, applies schema steps up to the export's
 * version, then inserts every row in one transaction (all or nothing).
 */
export async function importRows(
  storage: DurableObjectStorage,
  parsed: { header: ExportHeader; rows: RowLine[] },
): Promise<number> {
  await storage.deleteAll();
  applyMigrations(storage, parsed.header.schema_version);
  storage.transactionSync(() => {
    for (const line of parsed.rows) {
      const cols = Object.keys(line.row);
      const names = cols.map((c) => (c === ROWID ? 'rowid' : quote(c)));
      storage.sql.exec(
        `INSERT OR REPLACE INTO ${quote(line.table)} (${names.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
        ...cols.map((c) => fromCell(line.row[c] ?? null)),
      );
    }
  });
  return readSchemaVersion(storage.sql);
}

/** Import into a Context that holds nothing yet; on a failed replay it is left fresh at latest. */
export async function importIntoEmpty(
  storage: DurableObjectStorage,
  ndjson: string,
): Promise<Result<{ schema_version: number; rows: number }>> {
  const parsed = parseExport(ndjson);
  if (!parsed.ok) return fail({ kind: 'validation-error', detail: `import: ${parsed.error}` });
  const holding = nonEmptyTables(storage.sql);
  if (holding.length > 0) {
    return fail({
      kind: 'conflict',
      detail: `import needs an empty Context (this one has rows in ${holding.join(', ')}): create a new one and import into it`,
    });
  }
  try {
    const version = await importRows(storage, parsed);
    return ok({ schema_version: version, rows: parsed.rows.length });
  } catch (err) {
    await storage.deleteAll();
    applyMigrations(storage);
    const detail = err instanceof Error ? err.message : String(err);
    return fail({
      kind: 'validation-error',
      detail: `import: the rows could not be replayed: ${detail}`,
    });
  }
}
