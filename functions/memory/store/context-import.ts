import { fail, ok, type Result } from '../errors.ts';
import {
  exportTables,
  quote,
  ROWID,
  SKIPPED_TABLES,
  tableCounts,
  type JsonCell,
  type RowLine,
} from './context-export.ts';
import { LATEST_SCHEMA_VERSION } from './schema/index.ts';
import { applyMigrations } from './schema/runner.ts';
import { forgetDatabase } from './forget-database.ts';

/**
 * The store side of a streamed restore, all or nothing: `beginImport` wipes the (empty) Context,
 * builds the export's schema version and leaves an `_import` marker; `importBatch` inserts a
 * bounded batch of rows per transaction; `finishImport` checks every table's count against the
 * trailer and drops the marker. Any failure (bad row, count mismatch, abort, a cut body) wipes
 * the database back to a fresh Context at the latest version, which is what it was before: an
 * import only ever goes into an empty Context. A marker left by a Worker that died mid-import is
 * wiped by the next `beginImport`.
 */

const MARKER_DDL = `CREATE TABLE _import (key TEXT PRIMARY KEY, value TEXT NOT NULL)`;

interface Marker {
  token: string;
  contextId: string;
}

function readMarker(sql: SqlStorage): Marker | null {
  const exists = sql
    .exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_import'`)
    .toArray();
  if (exists.length === 0) return null;
  const values = new Map(
    sql
      .exec<{ key: string; value: string }>('SELECT key, value FROM _import')
      .toArray()
      .map((r) => [r.key, r.value]),
  );
  return { token: values.get('token') ?? '', contextId: values.get('context_id') ?? '' };
}

/** Tables other than `_meta` that hold a row: none for a Context fresh from creation. */
export function nonEmptyTables(sql: SqlStorage): string[] {
  return exportTables(sql)
    .filter((t) => t.name !== '_meta')
    .filter((t) => sql.exec(`SELECT 1 FROM ${quote(t.name)} LIMIT 1`).toArray().length > 0)
    .map((t) => t.name);
}

/** Back to a fresh Context at the latest schema: the state every failed import returns to. */
export async function wipeToFresh(storage: DurableObjectStorage): Promise<void> {
  await storage.deleteAll();
  forgetDatabase(storage.sql);
  applyMigrations(storage);
}

export async function beginImport(
  storage: DurableObjectStorage,
  input: { contextId: string; schemaVersion: number; token: string },
): Promise<Result<null>> {
  const version = input.schemaVersion;
  if (!Number.isInteger(version) || version < 1 || version > LATEST_SCHEMA_VERSION) {
    return fail({
      kind: 'validation-error',
      detail: `import: header schema_version must be an integer from 1 to ${LATEST_SCHEMA_VERSION}`,
    });
  }
  if (readMarker(storage.sql) === null) {
    const holding = nonEmptyTables(storage.sql);
    if (holding.length > 0) {
      return fail({
        kind: 'conflict',
        detail: `import needs an empty Context (this one has rows in ${holding.join(', ')}): create a new one and import into it`,
      });
    }
  }
  await storage.deleteAll();
  forgetDatabase(storage.sql);
  applyMigrations(storage, version);
  storage.sql.exec(MARKER_DDL);
  storage.sql.exec(
    `INSERT INTO _import (key, value) VALUES ('token', ?), ('context_id', ?), ('started_at', ?)`,
    input.token,
    input.contextId,
    new Date().toISOString(),
  );
  return ok(null);
}

function fromCell(cell: JsonCell): SqlStorageValue {
  if (cell !== null && typeof cell === 'object') {
    const binary = atob(cell.$base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes.buffer;
  }
  return cell;
}

function checkToken(sql: SqlStorage, token: string): Result<Marker> {
  const marker = readMarker(sql);
  if (marker?.token === token) return ok(marker);
  return fail({
    kind: 'conflict',
    detail: 'import: no import with this token is under way (another one replaced it, or it ended)',
  });
}

/**
 * Inserts one batch in one transaction. A document's blob key is rewritten to this Context's
 * own prefix: its file is restored there (PUT .../import/blobs/{sha256}), never shared with the
 * source. Rows of tables that never travel (a v1 export's response cache) are skipped.
 */
export function importBatch(
  storage: DurableObjectStorage,
  token: string,
  rows: RowLine[],
  firstLine: number,
): Result<number> {
  const marker = checkToken(storage.sql, token);
  if (!marker.ok) return marker;
  const known = new Set(exportTables(storage.sql).map((t) => t.name));
  let at = firstLine;
  try {
    return ok(
      storage.transactionSync(() => {
        let inserted = 0;
        for (const [i, line] of rows.entries()) {
          at = firstLine + i;
          if (SKIPPED_TABLES.has(line.table)) continue;
          if (!known.has(line.table)) throw new Error(`unknown table "${line.table}"`);
          const row = { ...line.row };
          if (line.table === 'documents' && typeof row.id === 'string') {
            row.blob_key = `documents/${marker.value.contextId}/${row.id}`;
          }
          const cols = Object.keys(row);
          const names = cols.map((c) => (c === ROWID ? 'rowid' : quote(c)));
          // OR REPLACE: the fresh schema already holds `_meta`'s version row. A row repeated in
          // an export collapses here and is caught by finishImport's count check.
          storage.sql.exec(
            `INSERT OR REPLACE INTO ${quote(line.table)} (${names.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
            ...cols.map((c) => fromCell(row[c] ?? null)),
          );
          inserted++;
        }
        return inserted;
      }),
    );
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return fail({ kind: 'validation-error', detail: `import: line ${at}: ${detail}` });
  }
}

/** Checks every table's row count against `expected` (the trailer's), then ends the import. */
export async function finishImport(
  storage: DurableObjectStorage,
  token: string,
  expected: Record<string, number>,
): Promise<Result<null>> {
  const marker = checkToken(storage.sql, token);
  if (!marker.ok) return marker;
  const actual = tableCounts(storage.sql);
  const names = new Set([...Object.keys(actual), ...Object.keys(expected)]);
  const wrong = [...names]
    .filter((t) => !SKIPPED_TABLES.has(t))
    .filter((t) => (actual[t] ?? 0) !== (expected[t] ?? 0))
    .map((t) => `${t}: ${actual[t] ?? 0} stored, ${expected[t] ?? 0} expected`);
  if (wrong.length > 0) {
    await wipeToFresh(storage);
    return fail({
      kind: 'validation-error',
      detail: `import: row counts differ from the export's (${wrong.join('; ')}); nothing was kept`,
    });
  }
  storage.sql.exec('DROP TABLE _import');
  return ok(null);
}

/** Undoes an import under way with `token`; a newer import's work is left alone. */
export async function abortImport(storage: DurableObjectStorage, token: string): Promise<void> {
  if (readMarker(storage.sql)?.token === token) await wipeToFresh(storage);
}
