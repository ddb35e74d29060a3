import { DurableObject } from 'cloudflare:workers';
import {
  entityDetail,
  entityPage,
  type EntityCursor,
  type EntitySummary,
} from './entity-browse.ts';
import { itemHistory } from './memory-browse.ts';
import { recentItems } from './fact-window.ts';
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
  toRecord,
  type ListItemsInput,
} from './items.ts';
import { applyMigrations, readSchemaVersion, type MigrationStep } from './schema/runner.ts';
import { forgetDatabase } from './forget-database.ts';
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
import { setBudgetLimit } from './memory-budget.ts';
import { LATEST_SCHEMA_VERSION } from './schema/index.ts';

/** Delay before the vector index's next background step. */
const ALARM_DELAY_MS = 10;

/** Completes an idempotent write in the same transaction as the write itself. */
export interface IdempotentWrite {
  principalId: string;
  key: string;
  status: number;
}
/**
 * One Context's own SQLite database, core of the data methods (lifecycle, items, search,
 * idempotency, sessions) of the `ContextStore` Durable Object
 * (context-object/context-store.ts adds the access check and runs operations in one call).
 * Thin on purpose: each RPC method calls plain functions in store/*.ts. Expected failures come
 * back as `Result` values because error properties do not survive RPC.
 */
export class ContextCore extends DurableObject<Env> {
  protected readonly vectors = new VectorCache();
  protected version: number | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const kib = Number(env.CONTEXT_MEMORY_BUDGET_KIB);
    if (Number.isFinite(kib) && kib > 0) setBudgetLimit(ctx.storage.sql, kib * 1024);
    // The index's background steps run in an alarm. Asked for inside a write's transaction, so
    // set once the transaction is over (a rolled-back write leaves an alarm with nothing to do).
    this.vectors.setScheduler(() =>
      queueMicrotask(() => void ctx.storage.setAlarm(Date.now() + ALARM_DELAY_MS)),
    );
  }

  /** One background step of the vector index (store/vector-ivf.ts); again while work remains. */
  override async alarm(): Promise<void> {
    if (this.currentVersion() < LATEST_SCHEMA_VERSION) return;
    const more = this.atomically(() => this.vectors.maintain(this.sql));
    if (more) await this.ctx.storage.setAlarm(Date.now() + ALARM_DELAY_MS);
  }

  protected get sql(): SqlStorage {
    return this.ctx.storage.sql;
  }

  protected currentVersion(): number {
    this.version ??= readSchemaVersion(this.sql);
    return this.version;
  }

  /** Runs `fn` in one transaction; on failure the in-memory vector cache is dropped too. */
  protected atomically<T>(fn: () => T): T {
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
    forgetDatabase(this.sql);
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

  /** Entity names mentioned by current items inside the lens (store/entity-browse.ts). */
  async entityPage(input: {
    lens: string[][];
    from: EntityCursor;
    limit: number;
    prefix: string | null;
  }): Promise<{ entities: EntitySummary[]; next: EntityCursor | null }> {
    return entityPage(this.sql, input);
  }

  /** One entity with the current items inside the lens that mention it (entity-browse.ts). */
  async entityDetail(input: {
    lens: string[][];
    name: string;
    limit: number;
  }): Promise<Result<{ entity: EntitySummary; items: ItemRecord[] }>> {
    const found = entityDetail(this.sql, input);
    return found
      ? ok(found)
      : fail({ kind: 'not-found', detail: `no entity "${input.name}" in this Context` });
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
    validFrom?: string;
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
}
