import type { ConsolidationDecision } from '../inference/consolidate.ts';
import * as modelRpc from './model-rpc.ts';
import {
  cacheGet,
  cachePut,
  countStaleVectors,
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
import type { Result } from '../errors.ts';
import type { ItemRecord, NewItem, SearchRequest } from './types.ts';
import { ContextDocuments } from './context-documents.ts';
import {
  consolidationMark,
  consolidationSet,
  setConsolidationMark,
  type ConsolidationSet,
} from './consolidation-set.ts';
import { currentItems } from './fact-window.ts';

export type { IdempotentWrite } from './context-core.ts';

/**
 * One Context's own SQLite database: the data methods of the `ContextStore` Durable Object, by
 * concern in a chain of small classes (context-core.ts: lifecycle, items, search, idempotency,
 * sessions; context-documents.ts: documents, fenced migrations, backup and restore; here: the
 * model-backed paths)
 * (context-object/context-store.ts adds the access check and runs operations in one call).
 * Thin on purpose: each RPC method calls plain functions in store/*.ts. Expected failures come
 * back as `Result` values because error properties do not survive RPC.
 */
export class ContextDatabase extends ContextDocuments {
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

  /** The facts one consolidation call plans over, from `after` on (store/consolidation-set.ts). */
  async modelConsolidationSet(input: {
    lens: string[][];
    after: number;
  }): Promise<ConsolidationSet> {
    return consolidationSet(this.sql, input);
  }

  /** Where the cadenced consolidation goes on from (0: from the start). */
  async modelConsolidationMark(): Promise<number> {
    return consolidationMark(this.sql);
  }

  async modelSetConsolidationMark(seq: number): Promise<void> {
    setConsolidationMark(this.sql, seq);
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
