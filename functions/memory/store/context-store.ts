import { DurableObject } from 'cloudflare:workers';
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
import type { ConsolidationDecision } from '../inference/consolidate.ts';
import * as modelRpc from './model-rpc.ts';
import {
  cacheGet,
  cachePut,
  countStaleVectors,
  currentItems,
  modelUsageTotals,
  recordModelUsage,
  setTurnExtraction,
  type AppliedChange,
  type ExtractionStatus,
  type FactChange,
  type LiveItem,
  type ModelUsageEntry,
  type ModelUsageTotals,
} from './model-paths.ts';
import type { DocumentRecord, DocumentWork, NewDocument } from './documents-table.ts';
import { entityPage, itemHistory, type EntitySummary } from './memory-browse.ts';
import { migrateFenced, type FencedMigration } from './migrate-fenced.ts';
import { fail, ok, type Result } from '../errors.ts';
import {
  beginIdempotent,
  completeIdempotent,
  releaseIdempotent,
  type IdempotencyStart,
} from './idempotency.ts';
import {
  deleteItemRow,
  deleteItemsBySource,
  getItemRow,
  insertItems,
  listItems,
  recentItems,
  toRecord,
  type ListItemsInput,
} from './items.ts';
import { applyMigrations, readSchemaVersion, type MigrationStep } from './schema/runner.ts';
import type { Lens } from '../scopes/lens.ts';
import { plannedSearch, search, type PlannedSearch } from './search.ts';
import * as sessions from './sessions.ts';
import type {
  ItemKind,
  ItemRecord,
  NewItem,
  SearchHit,
  SearchRequest,
  SessionRecord,
  StoreUsage,
  TurnRecord,
  JsonObject,
} from './types.ts';
import { usage } from './usage.ts';
import { withSupersession } from './validity.ts';
import { VectorCache } from './vectors.ts';

/** Completes an idempotent write in the same transaction as the write itself. */
export interface IdempotentWrite {
  principalId: string;
  key: string;
  status: number;
}

/**
 * One Context's own SQLite database: the data methods of the `ContextStore` Durable Object
 * (context-object/context-store.ts adds the access check and runs operations in one call).
 * Thin on purpose: each RPC method calls plain functions in store/*.ts. Expected failures come
 * back as `Result` values because error properties do not survive RPC.
 */
export class ContextDatabase extends DurableObject<Env> {
  protected readonly vectors = new VectorCache();
  protected version: number | null = null;

  protected get sql(): SqlStorage {
    return this.ctx.storage.sql;
  }

  protected currentVersion(): number {
    this.version ??= readSchemaVersion(this.sql);
    return this.version;
  }

  /** Runs `fn` in one transaction; on failure the in-memory vector cache is dropped too. */
  private atomically<T>(fn: () => T): T {
    try {
      return this.ctx.storage.transactionSync(fn);
    } catch (err) {
      this.vectors.reset();
      throw err;
    }
  }

  /** Creates the Context's database at the latest schema version. */
  async initialize(): Promise<number> {
    applyMigrations(this.ctx.storage);
    this.version = null;
    return this.currentVersion();
  }

  async schemaVersion(): Promise<number> {
    return this.currentVersion();
  }

  /** Applies pending schema versions up to `target` (default: latest), each in its own transaction. */
  async migrate(target?: number): Promise<MigrationStep[]> {
    const steps = applyMigrations(this.ctx.storage, target);
    this.version = null;
    this.vectors.reset();
    return steps;
  }

  /** Removes the Context's whole database. */
  async destroy(): Promise<void> {
    await this.ctx.storage.deleteAll();
    this.version = null;
    this.vectors.reset();
  }

  async usage(): Promise<StoreUsage> {
    return usage(this.sql);
  }

  async writeItems(items: NewItem[], idempotent: IdempotentWrite | null): Promise<ItemRecord[]> {
    const now = new Date().toISOString();
    return this.atomically(() => {
      const records = insertItems(this.sql, this.vectors, items, now);
      if (idempotent) {
        completeIdempotent(
          this.sql,
          idempotent.principalId,
          idempotent.key,
          idempotent.status,
          JSON.stringify({ facts: records }),
        );
      }
      return records;
    });
  }

  /** `readLens` decides which successor `superseded_by` may name (see validity.ts). */
  async getItem(id: string, readLens: Lens): Promise<Result<ItemRecord>> {
    const row = getItemRow(this.sql, id);
    return row
      ? ok(withSupersession(this.sql, toRecord(row), readLens))
      : fail({ kind: 'not-found', detail: `no item ${id} in this Context` });
  }

  async listItems(input: ListItemsInput): Promise<{ items: ItemRecord[]; next: number | null }> {
    const page = listItems(this.sql, input);
    return { ...page, items: page.items.map((i) => withSupersession(this.sql, i, input.lens)) };
  }

  async recentItems(kind: ItemKind, lens: string[][], limit: number): Promise<ItemRecord[]> {
    return recentItems(this.sql, kind, lens, limit);
  }

  /** Every version of a fact, oldest first (store/memory-browse.ts). */
  async itemHistory(id: string, readLens: Lens): Promise<Result<ItemRecord[]>> {
    const versions = itemHistory(this.sql, id, readLens);
    return versions
      ? ok(versions)
      : fail({ kind: 'not-found', detail: `no item ${id} in this Context` });
  }

  /** Entity names mentioned by current items inside the lens (store/memory-browse.ts). */
  async entityPage(input: {
    lens: string[][];
    after: number;
    limit: number;
    prefix: string | null;
  }): Promise<{ entities: EntitySummary[]; next: number | null }> {
    return entityPage(this.sql, input);
  }

  /** Deletes an item from the table and every index in one transaction. */
  async deleteItem(id: string): Promise<Result<null>> {
    return this.atomically(() => {
      const row = getItemRow(this.sql, id);
      if (!row) return fail<null>({ kind: 'not-found', detail: `no item ${id} in this Context` });
      deleteItemRow(this.sql, this.vectors, row);
      return ok(null);
    });
  }

  async deleteItemsBySource(sourceId: string): Promise<number> {
    return this.atomically(() => deleteItemsBySource(this.sql, this.vectors, sourceId));
  }

  async search(req: SearchRequest): Promise<SearchHit[]> {
    return search(this.sql, this.vectors, req);
  }

  /**
   * A query in one call: the mode it can honestly run in (bm25 while some items lack a vector of
   * the query's model) and its hits.
   */
  async query(req: SearchRequest): Promise<PlannedSearch> {
    return plannedSearch(this.sql, this.vectors, req);
  }

  async idempotencyBegin(
    principalId: string,
    key: string,
    requestHash: string,
  ): Promise<IdempotencyStart> {
    return beginIdempotent(this.sql, principalId, key, requestHash, Date.now());
  }

  async idempotencyRelease(principalId: string, key: string): Promise<void> {
    releaseIdempotent(this.sql, principalId, key);
  }

  /** Completes a key whose write was not `writeItems` (e.g. the `?infer=full` hook's). */
  async idempotencyComplete(
    principalId: string,
    key: string,
    status: number,
    body: string,
  ): Promise<void> {
    completeIdempotent(this.sql, principalId, key, status, body);
  }

  // Sessions: every call carries the caller's lens (and grant, for changes); see store/sessions.ts.
  async createSession(input: {
    id: string | null;
    metadata: JsonObject | null;
    scopes: string[];
  }): Promise<Result<SessionRecord>> {
    return sessions.createSession(this.sql, input, new Date().toISOString());
  }

  async getSession(id: string, lens: Lens): Promise<Result<SessionRecord>> {
    return sessions.getSession(this.sql, id, lens);
  }

  async listSessions(input: {
    limit: number;
    offset: number;
    lens: Lens;
  }): Promise<{ sessions: SessionRecord[]; total: number }> {
    return sessions.listSessions(this.sql, input);
  }

  async deleteSession(
    id: string,
    access: { lens: Lens; forgetGrant: string[] },
  ): Promise<Result<null>> {
    return this.atomically(() => sessions.deleteSession(this.sql, id, access));
  }

  async appendTurn(input: {
    sessionId: string;
    role: string;
    content: string;
    access: { lens: Lens; writeGrant: string[] };
  }): Promise<Result<TurnRecord>> {
    const now = new Date().toISOString();
    return this.atomically(() => sessions.appendTurn(this.sql, input, now));
  }

  async listTurns(input: {
    sessionId: string;
    limit: number;
    offset: number;
    newestFirst?: boolean;
    lens: Lens;
  }): Promise<Result<{ turns: TurnRecord[]; total: number }>> {
    return sessions.listTurns(this.sql, input);
  }
  // documents and migrations (issue 4)
  private get handle(): documentsRpc.StoreHandle {
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
  private async restoring<T>(step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } finally {
      this.version = null;
      this.vectors.reset();
    }
  }

  // model-backed paths (issue 5): thin delegates to store/model-rpc.ts and store/model-paths.ts
  private get modelHandle(): modelRpc.ModelHandle {
    return { storage: this.ctx.storage, vectors: this.vectors };
  }

  /** 503 until the Context has the model-backed tables (schema V4). */
  async modelReady(): Promise<Result<null>> {
    return modelRpc.ready(this.modelHandle);
  }

  async modelRelatedFacts(statements: string[], lens: string[][]): Promise<LiveItem[]> {
    return modelRpc.relatedFacts(this.modelHandle, statements, lens);
  }

  async modelApplyFactChanges(
    changes: FactChange[],
    writeGrant: string[],
  ): Promise<AppliedChange[]> {
    return modelRpc.applyFactChanges(this.modelHandle, changes, writeGrant);
  }

  async modelRetrieve(
    req: SearchRequest & { includeHistory: boolean },
  ): Promise<modelRpc.RetrievedItem[]> {
    return modelRpc.retrieve(this.modelHandle, req);
  }

  async modelCurrentItems(input: {
    lens: string[][];
    kinds: ('fact' | 'chunk' | 'reflection')[];
    limit: number;
  }): Promise<LiveItem[]> {
    return currentItems(this.sql, input);
  }

  async modelPersistReflections(items: NewItem[], sources: string[][]): Promise<ItemRecord[]> {
    return modelRpc.persistReflections(this.modelHandle, items, sources);
  }

  async modelApplyConsolidation(
    decisions: ConsolidationDecision[],
    writeGrant: string[],
  ): Promise<number> {
    return modelRpc.applyConsolidation(this.modelHandle, decisions, writeGrant);
  }

  /** Records one model call; returns the Context's running token total (input + output). */
  async modelRecordUsage(entry: ModelUsageEntry): Promise<number> {
    recordModelUsage(this.sql, entry, new Date().toISOString());
    const totals = modelUsageTotals(this.sql);
    return totals.input_tokens + totals.output_tokens;
  }

  /** Tokens of every model call on this Context (0 below V4, which has no usage table). */
  async modelTokensUsed(): Promise<number> {
    if (this.currentVersion() < modelRpc.MODEL_PATHS_SINCE) return 0;
    const totals = modelUsageTotals(this.sql);
    return totals.input_tokens + totals.output_tokens;
  }

  async modelUsage(): Promise<ModelUsageTotals> {
    return modelUsageTotals(this.sql);
  }

  // The cache table arrives with V4; a Context still below it (core paths such as POST /context
  // work there) simply has no cache, rather than failing on a missing table.
  async modelCacheGet(key: string): Promise<string | null> {
    if (this.currentVersion() < modelRpc.MODEL_PATHS_SINCE) return null;
    return cacheGet(this.sql, key);
  }

  async modelCachePut(key: string, body: string): Promise<void> {
    if (this.currentVersion() < modelRpc.MODEL_PATHS_SINCE) return;
    cachePut(this.sql, key, body, new Date().toISOString());
  }

  async modelTurn(turnId: string): Promise<ReturnType<typeof modelRpc.turn>> {
    return modelRpc.turn(this.modelHandle, turnId);
  }

  async modelSetTurnExtraction(
    turnId: string,
    state: { status: ExtractionStatus; facts?: number; detail?: string | null },
  ): Promise<void> {
    setTurnExtraction(this.sql, turnId, state, new Date().toISOString());
  }

  async modelStaleVectors(modelId: string): Promise<number> {
    return countStaleVectors(this.sql, modelId);
  }

  async modelStaleItems(
    modelId: string,
    limit: number,
  ): Promise<{ seq: number; content: string }[]> {
    return modelRpc.staleItems(this.modelHandle, modelId, limit);
  }

  async modelStoreVectors(
    modelId: string,
    vectors: { seq: number; values: Float32Array }[],
  ): Promise<number> {
    return modelRpc.storeVectors(this.modelHandle, modelId, vectors);
  }
}

/** Public async methods of the store, with their own signatures. */
export type RpcMethods<T> = {
  [K in keyof T as T[K] extends (...args: never[]) => Promise<unknown> ? K : never]: T[K];
};

/**
 * How callers see a Context's store. `DurableObjectStub<ContextStore>` maps every method through
 * the RPC serialisation types, which tsc cannot always expand ("excessively deep") once results
 * carry recursive JSON; every method here takes and returns plain structured-clone data, so the
 * class's own signatures are exactly what arrives. Get one with `contextStore(env, id)`.
 */
export type ContextStoreStub = RpcMethods<ContextDatabase>;

export function contextStore(env: Env, contextId: string): ContextStoreStub {
  return env.CONTEXT_STORE.getByName(contextId) as unknown as ContextStoreStub;
}
