import { AccessCache } from '../access/access-cache.ts';
import type { AccessHooks } from '../access/access-hooks.ts';
import type { Credential } from '../access/access-types.ts';
import { checkAccess } from '../access/check-access.ts';
import { RateWindows } from '../access/rate-windows.ts';
import { fail, MemoryError, ok, type Result } from '../errors.ts';
import { instrumentEnv } from '../instrument/instrument-bindings.ts';
import {
  contextOperation,
  type OperationInput,
  type OperationName,
  type OperationOutput,
} from '../operations/context-operations.ts';
import type { ContextRow } from '../operations/context-row.ts';
import { objectDeps } from './object-deps.ts';
import { ContextDatabase, type RpcMethods } from '../store/context-store.ts';
import { accessCache } from '../store/schema/access-cache.ts';
import { loadTables } from '../tables/load-tables.ts';
import type { MigrationStep } from '../store/schema/runner.ts';
import { dropUnreadInput } from '../documents/refuse-unread.ts';
import { modelFailure, ModelError } from '../models/provider.ts';

/** One data-plane request as the Worker hands it to the Context's object. */
export interface PerformRequest<N extends OperationName> {
  credential: Credential;
  contextId: string;
  /** The per-minute limit and the Worker's clock (tests pin both). */
  rate: { perMinute: number; nowMs: number };
  operation: N;
  input: OperationInput<N>;
}

/**
 * The `ContextStore` Durable Object: one Context's own database (store/context-store.ts) that
 * also answers the data plane's access check and rate limit for its Context and runs the
 * operation, so that a request is one RPC and no D1 call (docs/hot-path.md). Control-plane writes
 * tell it what changed (`forgetKeys`, `refreshContextRow`); what it misses expires from its cache.
 */
export class ContextStore extends ContextDatabase implements AccessHooks {
  private readonly tables = (): SqlStorage | null =>
    this.currentVersion() >= accessCache.version ? this.sql : null;
  private readonly access = new AccessCache(this.tables);
  private readonly rates = new RateWindows(this.tables);

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, instrumentEnv(env));
    // The word vectors and tokenizer ranks are static assets, read once per isolate before the
    // object's first call: its searches and writes use them synchronously (docs/self-hosting.md).
    void ctx.blockConcurrencyWhile(() => loadTables(env.ASSETS));
  }

  /** Access check, rate limit and the named operation, in one call. */
  async perform<N extends OperationName>(
    req: PerformRequest<N>,
  ): Promise<Result<OperationOutput<N>>> {
    const named = this.ctx.id.name;
    if ((named !== undefined && named !== req.contextId) || req.input.contextId !== req.contextId)
      return fail({ kind: 'internal', detail: 'request routed to the wrong Context object' });
    const checked = await checkAccess(
      {
        db: this.env.DB,
        bootstrapKey: this.env.MEMORY_BOOTSTRAP_KEY,
        cache: this.access,
        now: Date.now(),
      },
      req.credential,
      req.contextId,
    );
    // A refused upload's body is read to its end first, or the client may never see the answer.
    if (!checked.ok) return dropUnreadInput(req.input).then(() => checked);
    const { auth, context } = checked.value;
    const admitted = this.rates.count(auth.key.keyId, req.rate.perMinute, req.rate.nowMs);
    if (!admitted.ok) return dropUnreadInput(req.input).then(() => admitted);
    const deps = objectDeps(this.env, {
      // The operation's store calls are this object's own methods: no RPC, no second hop.
      store: () => this,
      contextRow: async (id) => (id === context.id ? context : null),
    });
    try {
      return ok(await contextOperation(req.operation)(deps, auth, req.input));
    } catch (err) {
      if (err instanceof MemoryError) return fail(err.failure);
      // Thrown over RPC its `failure` would be lost: answered here as a Result.
      if (err instanceof ModelError) return fail(modelFailure(err));
      throw err;
    }
  }

  /** MCP tool calls: the same per-minute budget as REST requests of this key on this Context. */
  async admit(keyId: string, perMinute: number, nowMs: number): Promise<Result<null>> {
    return this.rates.count(keyId, perMinute, nowMs);
  }

  /** A control-plane write changed or revoked these keys: drop them, the next use reads D1. */
  async forgetKeys(keyIds: string[]): Promise<number> {
    return this.access.forgetKeys(keyIds);
  }

  /** The Context's settings changed in D1: here is the new row. */
  async refreshContextRow(row: ContextRow): Promise<void> {
    this.access.epoch += 1;
    this.access.rememberContext(row, Date.now());
  }

  async forgetContext(): Promise<void> {
    this.access.forgetAll();
  }

  override async initialize(): Promise<number> {
    const version = await super.initialize();
    this.access.clear();
    this.rates.clear();
    return version;
  }

  override async migrate(target?: number): Promise<MigrationStep[]> {
    const steps = await super.migrate(target);
    this.access.clear();
    return steps;
  }

  override async importFinish(
    token: string,
    expected: Record<string, number>,
  ): Promise<Result<null>> {
    const result = await super.importFinish(token, expected);
    this.access.clear();
    this.rates.clear();
    return result;
  }

  override async destroy(): Promise<void> {
    await super.destroy();
    this.access.forgetAll();
    this.rates.clear();
  }
}

/** How the Worker sees the object: the store's methods plus `perform` and the access hooks. */
export type ContextObjectStub = RpcMethods<ContextStore>;

export function contextObject(env: Env, contextId: string): ContextObjectStub {
  return env.CONTEXT_STORE.getByName(contextId) as unknown as ContextObjectStub;
}
