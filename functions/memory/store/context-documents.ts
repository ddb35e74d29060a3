import {
  exportHeader,
  exportPage,
  type ExportCursor,
  type ExportHeader,
  type ExportPage,
  type RowLine,
} from './context-export.ts';
import * as restore from './context-import.ts';
import { blobBySha, referencedBlobs, type DocumentBlob } from './document-blobs.ts';
import * as documentsRpc from './documents-rpc.ts';
import type { DocumentRecord, DocumentWork, NewDocument } from './documents-table.ts';
import { migrateFenced, type FencedMigration } from './migrate-fenced.ts';
import { stepUnderway } from './schema/runner.ts';
import { type Result } from '../errors.ts';
import type { Lens } from '../scopes/lens.ts';
import type { NewItem } from './types.ts';
import { ContextCore } from './context-core.ts';

/** Documents, fenced migrations, backup and restore: store/documents-rpc.ts, context-*.ts. */
export class ContextDocuments extends ContextCore {
  // documents and migrations (issue 4)
  protected get handle(): documentsRpc.StoreHandle {
    return { storage: this.ctx.storage, vectors: this.vectors };
  }

  /** The `context_migrate` path: fenced by the ContextLease token (store/migrate-fenced.ts). */
  async migrateSchema(token: number, target: number): Promise<FencedMigration> {
    const result = migrateFenced(this.ctx.storage, token, target);
    this.version = null;
    this.vectors.reset();
    return result;
  }

  async createDocument(
    doc: NewDocument,
    readLens: Lens,
  ): Promise<Result<{ document: DocumentRecord; deduplicated: boolean }>> {
    return documentsRpc.create(this.handle, doc, readLens);
  }

  async getDocument(id: string): Promise<Result<DocumentRecord>> {
    return documentsRpc.get(this.handle, id);
  }

  async listDocuments(input: {
    lens: string[][];
    after: string | null;
    limit: number;
  }): Promise<Result<{ documents: DocumentRecord[]; next: string | null }>> {
    return documentsRpc.list(this.handle, input);
  }

  /** Deletes a document and its chunks; returns its R2 key for the caller to remove. */
  async deleteDocument(id: string): Promise<Result<string | null>> {
    return documentsRpc.remove(this.handle, id);
  }

  async documentWork(id: string): Promise<DocumentWork | null> {
    return documentsRpc.work(this.handle, id);
  }

  async markDocumentStep(
    id: string,
    status: 'extracting' | 'chunking' | 'embedding',
  ): Promise<boolean> {
    return documentsRpc.step(this.handle, id, status);
  }

  async failDocument(id: string, error: string): Promise<boolean> {
    return documentsRpc.failed(this.handle, id, error);
  }

  async completeDocument(id: string, chunks: NewItem[], pages: number | null): Promise<boolean> {
    return documentsRpc.complete(this.handle, id, chunks, pages);
  }

  // backup and restore (issue 16): pages out, bounded batches in; store/context-*.ts
  /** A schema step still filling its rows in pieces (schema/runner.ts), or null. */
  async schemaStepUnderway(): Promise<number | null> {
    return stepUnderway(this.sql);
  }

  async exportHeader(contextId: string): Promise<ExportHeader> {
    return exportHeader(this.sql, contextId);
  }

  async exportPage(cursor: ExportCursor | null, maxBytes?: number): Promise<ExportPage> {
    return exportPage(this.sql, cursor, maxBytes);
  }

  /** The R2 key of the document whose bytes hash to `sha256`, for the backup's blob route. */
  async documentBlob(sha256: string): Promise<DocumentBlob | null> {
    return blobBySha(this.sql, sha256);
  }

  /** Which of `keys` (one R2 listing page) a document of this Context references. */
  async referencedBlobs(keys: string[]): Promise<{ blob_key: string; sha256: string }[]> {
    return referencedBlobs(this.sql, keys);
  }

  /** Starts an all-or-nothing restore into this (empty) Context. */
  async importBegin(input: {
    contextId: string;
    schemaVersion: number;
    token: string;
  }): Promise<Result<null>> {
    return this.restoring(() => restore.beginImport(this.ctx.storage, input));
  }

  async importBatch(token: string, rows: RowLine[], firstLine: number): Promise<Result<number>> {
    return this.restoring(async () =>
      restore.importBatch(this.ctx.storage, token, rows, firstLine),
    );
  }

  async importFinish(token: string, expected: Record<string, number>): Promise<Result<null>> {
    return this.restoring(() => restore.finishImport(this.ctx.storage, token, expected));
  }

  async importAbort(token: string): Promise<void> {
    return this.restoring(() => restore.abortImport(this.ctx.storage, token));
  }

  /** Restore steps rewrite the database: cached version and vectors are stale afterwards. */
  protected async restoring<T>(step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } finally {
      this.version = null;
      this.vectors.reset();
    }
  }
}
