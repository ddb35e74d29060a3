import type { AuthContext } from '../auth/principal.ts';
import type { Embedder } from '../retrieval/embedder.ts';
import type { ContextStoreStub } from '../store/context-store.ts';
import type { ItemRecord, JsonObject } from '../store/types.ts';
import type { ContextRow } from './context-row.ts';

/** Input of a fact write, after validation (shared by `?infer=full`). */
export interface FactDraft {
  content: string;
  scopes: string[];
  metadata: JsonObject | null;
  sessionId: string | null;
  /** When it was said or happened (ISO 8601, UTC); the write time when absent. */
  validFrom?: string | null;
  /** Conversation label and turn position (`FactInput.session`, `.position`). */
  session?: string | null;
  position?: number | null;
}

/**
 * The `?infer=full` hook (model-backed issue): turns one submitted fact into the facts actually
 * stored (extracted, deduplicated, superseding...). Null means inference is not enabled and
 * `POST /facts?infer=full` answers 422 instead of silently writing the literal text.
 */
export type InferFacts = (
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; draft: FactDraft },
) => Promise<ItemRecord[]>;

/** Everything an operation needs, injected so REST routes, MCP tools and tests share one path. */
export interface OperationDeps {
  env: Env;
  db: D1Database;
  /** The Context's own database (does not check that the Context exists: see requireContext). */
  store(contextId: string): ContextStoreStub;
  /**
   * The Context's registry row, or null when there is no such Context: read from D1 in the
   * Worker (control plane), the object's cached copy when the operation runs inside the
   * Context's own object (the data plane, docs/hot-path.md).
   */
  contextRow(contextId: string): Promise<ContextRow | null>;
  embedder: Embedder;
  inferFacts: InferFacts | null;
}
