import { createHash } from 'node:crypto';
import { findTextFault } from '../../../src/lib/well-formed-text.ts';
import { failure } from '../errors.ts';
import { EXPORT_FORMAT, type RowLine } from '../store/context-export.ts';
import { ndjsonLines } from './ndjson-lines.ts';

/**
 * Reads an export line by line and hands bounded batches of rows to `sink`, checking the format
 * as it goes and, at the trailer, the row count, the per-table counts and the sha256 over the
 * row lines (format 2; format 1 has only the count). Throws a validation failure naming the line.
 */

export interface ImportSink {
  begin(schemaVersion: number): Promise<void>;
  batch(rows: RowLine[], firstLine: number): Promise<void>;
  /** Called once the trailer checked out, with the rows each table must now hold. */
  finish(expected: Record<string, number>): Promise<void>;
}

/** A batch is one transaction in the object: bounded by rows and by bytes. */
export const BATCH_ROWS = 2000;
export const BATCH_BYTES = 4 * 1024 * 1024;

interface Trailer {
  rows: number;
  counts: Record<string, number> | null;
  sha256: string | null;
}

const bad = (line: number, why: string) =>
  failure('validation-error', `import: line ${line} ${why}`);

function parseLine(text: string, n: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw bad(n, 'is not JSON (a cut or damaged export?)');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw bad(n, 'is not a JSON object');
  }
  return value as Record<string, unknown>;
}

function headerVersion(line: Record<string, unknown>): { format: 1 | 2; schema: number } {
  const format = line.format_version;
  if (line.type !== 'header' || line.format !== EXPORT_FORMAT || (format !== 1 && format !== 2)) {
    throw bad(1, `is not an ${EXPORT_FORMAT} header (format_version 1 or 2)`);
  }
  if (typeof line.schema_version !== 'number') throw bad(1, 'has no numeric schema_version');
  return { format, schema: line.schema_version };
}

function isCounts(value: unknown): value is Record<string, number> {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.values(value).every((n) => typeof n === 'number' && Number.isInteger(n))
  );
}

function readTrailer(line: Record<string, unknown>, n: number, format: 1 | 2): Trailer {
  if (typeof line.rows !== 'number') throw bad(n, 'is an end line without a row count');
  if (format === 1) return { rows: line.rows, counts: null, sha256: null };
  if (!isCounts(line.counts) || typeof line.sha256 !== 'string') {
    throw bad(n, 'is an end line without counts and sha256');
  }
  return { rows: line.rows, counts: line.counts, sha256: line.sha256 };
}

function checkTrailer(
  trailer: Trailer | null,
  rows: number,
  counts: Record<string, number>,
  sha: string,
): void {
  if (!trailer) {
    throw failure(
      'validation-error',
      'import: the export has no end line (truncated?); nothing was kept',
    );
  }
  if (trailer.rows !== rows) {
    throw failure(
      'validation-error',
      `import: end line counts ${trailer.rows} rows, found ${rows}`,
    );
  }
  if (trailer.sha256 !== null && trailer.sha256 !== sha) {
    throw failure(
      'validation-error',
      `import: checksum mismatch: the end line says sha256 ${trailer.sha256}, the rows hash to ${sha}`,
    );
  }
  const expected = trailer.counts;
  if (expected) {
    const tables = new Set([...Object.keys(expected), ...Object.keys(counts)]);
    const wrong = [...tables].filter((t) => (expected[t] ?? 0) !== (counts[t] ?? 0));
    if (wrong.length > 0) {
      throw failure(
        'validation-error',
        `import: end line counts differ from the rows for ${wrong.join(', ')}`,
      );
    }
  }
}

export interface BatchLimits {
  rows: number;
  bytes: number;
}

export async function readExport(
  body: ReadableStream<Uint8Array>,
  sink: ImportSink,
  limits: BatchLimits = { rows: BATCH_ROWS, bytes: BATCH_BYTES },
): Promise<{ schema_version: number; rows: number }> {
  const hash = createHash('sha256');
  const counts: Record<string, number> = {};
  let header: { format: 1 | 2; schema: number } | null = null;
  let trailer: Trailer | null = null;
  let batch: RowLine[] = [];
  let batchBytes = 0;
  let batchStart = 0;
  let rows = 0;
  let n = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await sink.batch(batch, batchStart);
    batch = [];
    batchBytes = 0;
  };
  for await (const text of ndjsonLines(body)) {
    n++;
    if (text.trim() === '') continue;
    const line = parseLine(text, n);
    if (!header) {
      header = headerVersion(line);
      await sink.begin(header.schema);
      continue;
    }
    if (trailer) throw bad(n, 'comes after the end line');
    if (line.type === 'end') {
      trailer = readTrailer(line, n, header.format);
      continue;
    }
    if (
      line.type !== 'row' ||
      typeof line.table !== 'string' ||
      typeof line.row !== 'object' ||
      line.row === null
    ) {
      throw bad(n, 'is not a row line ({"type":"row","table":…,"row":{…}})');
    }
    // `\ud800` escapes parse into strings that are not text: they never reach SQLite.
    const fault = findTextFault(line.row);
    if (fault) throw bad(n, `${fault.path}: ${fault.problem}`);
    hash.update(`${text}\n`);
    if (batch.length === 0) batchStart = n;
    batch.push(line as unknown as RowLine);
    batchBytes += text.length;
    counts[line.table] = (counts[line.table] ?? 0) + 1;
    rows++;
    if (batch.length >= limits.rows || batchBytes >= limits.bytes) await flush();
  }
  if (!header) throw failure('validation-error', 'import: the body is empty (no header line)');
  await flush();
  checkTrailer(trailer, rows, counts, hash.digest('hex'));
  await sink.finish(trailer?.counts ?? counts);
  return { schema_version: header.schema, rows };
}
