// The scale-long bench's copy of a large Context into a fresh one, in this process: the export
// pages the deployed object would send (`exportPage`, one object call each), read back by the
// import's own line reader (`readExport`) into bounded batches (`importBatch`, one transaction
// and one object call each), then `finishImport`'s count check. Each call is timed: what a
// request's CPU limit sees. Also the copy's wall time and bytes.
import type { Result } from '../../functions/memory/errors.ts';
import { exportStream } from '../../functions/memory/operations/context-backup.ts';
import { readExport } from '../../functions/memory/operations/import-lines.ts';
import {
  exportHeader,
  exportPage,
  type ExportCursor,
} from '../../functions/memory/store/context-export.ts';
import {
  beginImport,
  finishImport,
  importBatch,
} from '../../functions/memory/store/context-import.ts';
import type { ContextStoreStub } from '../../functions/memory/store/context-store.ts';
import { nodeStorage } from '../../test/support/node-sql-storage.ts';

export interface CopyTimes {
  pages: number[];
  batches: number[];
  finish: number;
  rows: number;
  bytes: number;
  seconds: number;
}

function unwrapOk<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(result.failure.detail);
  return result.value;
}

export async function copyContext(source: SqlStorage, into: string): Promise<CopyTimes> {
  const times: CopyTimes = { pages: [], batches: [], finish: 0, rows: 0, bytes: 0, seconds: 0 };
  // The object's two export calls, over the source file, each timed.
  const store = {
    exportHeader: async (id: string) => exportHeader(source, id),
    exportPage: async (cursor: ExportCursor | null, maxBytes?: number) => {
      const t0 = performance.now();
      const page = exportPage(source, cursor, maxBytes);
      times.pages.push(performance.now() - t0);
      return page;
    },
  } as unknown as ContextStoreStub;
  const dest = nodeStorage(into);
  // A fresh file holds nothing to delete.
  const storage = { ...dest, deleteAll: async () => {} } as unknown as DurableObjectStorage;
  const token = 'bench-import';
  const counted = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      times.bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const start = performance.now();
  const result = await readExport(exportStream(store, 'bench').pipeThrough(counted), {
    begin: async (schemaVersion) => {
      unwrapOk(await beginImport(storage, { contextId: 'bench-copy', schemaVersion, token }));
    },
    batch: async (rows, firstLine) => {
      const t0 = performance.now();
      unwrapOk(importBatch(storage, token, rows, firstLine));
      times.batches.push(performance.now() - t0);
    },
    finish: async (expected) => {
      const t0 = performance.now();
      unwrapOk(await finishImport(storage, token, expected));
      times.finish = performance.now() - t0;
    },
  });
  times.rows = result.rows;
  times.seconds = (performance.now() - start) / 1000;
  return times;
}
