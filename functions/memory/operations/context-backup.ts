import { createHash } from 'node:crypto';
import type { AuthContext } from '../auth/principal.ts';
import { failure, MemoryError, unwrap } from '../errors.ts';
import type { ContextStoreStub } from '../store/context-store.ts';
import type { ExportCursor } from '../store/context-export.ts';
import { requireContext } from './contexts.ts';
import type { OperationDeps } from './deps.ts';
import { readExport, type BatchLimits } from './import-lines.ts';

/**
 * Backup and restore of one Context as NDJSON, streamed both ways (docs/operations.md has the
 * format): the export pulls bounded pages from the Context's object and writes them to a
 * `ReadableStream`, the import reads the body line by line and writes bounded batches, so memory
 * stays flat whatever the Context's size.
 */

/** One page at a time: the stream asks the object for the next page only when it is read. */
export function exportStream(
  store: ContextStoreStub,
  contextId: string,
  pageBytes?: number,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const hash = createHash('sha256');
  const counts: Record<string, number> = {};
  let rows = 0;
  let cursor: ExportCursor | null = null;
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          const header = await store.exportHeader(contextId);
          // Empty tables appear in the trailer too, so it lists the same tables as the header.
          for (const table of Object.keys(header.counts ?? {})) counts[table] = 0;
          controller.enqueue(encoder.encode(`${JSON.stringify(header)}\n`));
          return;
        }
        const page = await store.exportPage(cursor, pageBytes);
        if (page.lines.length > 0) {
          const text = `${page.lines.join('\n')}\n`;
          hash.update(text);
          controller.enqueue(encoder.encode(text));
          rows += page.lines.length;
          for (const [table, n] of Object.entries(page.counts)) {
            counts[table] = (counts[table] ?? 0) + n;
          }
        }
        cursor = page.next;
        if (cursor === null) {
          // The checksum can only come last: it covers rows that were not read when the header went.
          const trailer = { type: 'end', rows, counts, sha256: hash.digest('hex') };
          controller.enqueue(encoder.encode(`${JSON.stringify(trailer)}\n`));
          controller.close();
        }
      },
    },
    // Nothing is read ahead of the consumer: one page in memory at a time.
    { highWaterMark: 0 },
  );
}

/** `GET /contexts/{id}/export` (management key). */
export async function exportContext(
  deps: OperationDeps,
  auth: AuthContext,
  id: string,
): Promise<ReadableStream<Uint8Array>> {
  await requireContext(deps, auth, id);
  await assertNoStepUnderway(deps.store(id));
  return exportStream(deps.store(id), id);
}

/**
 * 503 while a schema step rewrites the Context's rows in pieces (minutes at a million facts):
 * an export taken then could not be imported anywhere (schema/runner.ts `stepUnderway`).
 */
export async function assertNoStepUnderway(store: ContextStoreStub): Promise<void> {
  const step = await store.schemaStepUnderway();
  if (step === null) return;
  throw new MemoryError({
    kind: 'service-unavailable',
    detail: `schema step ${step} is rewriting this Context's rows; export it when the step is done`,
    retryAfter: 60,
  });
}

export interface ImportResult {
  context_id: string;
  schema_version: number;
  rows: number;
}

/**
 * Replays an export stream into this Context's object, all or nothing: any failure (malformed
 * line, cut body, count or checksum mismatch) undoes what was written before it is reported.
 */
export async function importStream(
  store: ContextStoreStub,
  contextId: string,
  body: ReadableStream<Uint8Array>,
  limits?: BatchLimits,
): Promise<{ schema_version: number; rows: number }> {
  const token = crypto.randomUUID();
  let begun = false;
  try {
    return await readExport(
      body,
      {
        begin: async (schemaVersion) => {
          unwrap(await store.importBegin({ contextId, schemaVersion, token }));
          begun = true;
        },
        batch: async (rows, firstLine) => {
          unwrap(await store.importBatch(token, rows, firstLine));
        },
        finish: async (expected) => {
          unwrap(await store.importFinish(token, expected));
          begun = false;
        },
      },
      limits,
    );
  } catch (err) {
    if (begun) await store.importAbort(token);
    if (err instanceof MemoryError) throw err;
    // The body itself failed: not UTF-8 (the fatal decoder), or the client went away.
    const detail = err instanceof Error ? err.message : String(err);
    throw failure(
      'validation-error',
      `import: the body could not be read (${detail}); nothing was kept`,
    );
  }
}

/**
 * `POST /contexts/{id}/import`: restores into an existing, empty Context (409 otherwise; 400 for
 * a malformed or cut export, leaving the Context as it was). The registry gets the restored
 * version, which may be older than the latest: the scheduler then migrates it like any other.
 */
export async function importContext(
  deps: OperationDeps,
  auth: AuthContext,
  id: string,
  body: ReadableStream<Uint8Array> | null,
): Promise<ImportResult> {
  await requireContext(deps, auth, id);
  if (!body) throw failure('validation-error', 'import: the request body (an export) is empty');
  const result = await importStream(deps.store(id), id, body);
  await deps.db
    .prepare('UPDATE contexts SET schema_version = ?, updated_at = ? WHERE id = ?')
    .bind(result.schema_version, new Date().toISOString(), id)
    .run();
  return { context_id: id, ...result };
}
