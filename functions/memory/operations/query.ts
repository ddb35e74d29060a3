import { resolveLens } from '../auth/guards.ts';
import type { AuthContext } from '../auth/principal.ts';
import type { LensInput } from '../scopes/lens.ts';
import type { ItemKind, SearchHit, SearchMode, SearchRequest } from '../store/types.ts';
import { requireContext } from './contexts.ts';
import type { OperationDeps } from './deps.ts';
import { requestReembed } from './reembed.ts';
import type { PlannedSearch } from '../store/search.ts';

export const DEFAULT_K = 10;
/**
 * The mode used when none is asked for: the one with the best recall@10 on the held-out split of
 * the recall benchmark (docs/retrieval.md, "Default mode"). Since the graph walk is seeded from the
 * top 20 fused hits (fifteenth round), that is `hybrid_graph`: held-out 0.526 against hybrid 0.511
 * in process, multi-hop 0.406 against 0.394; on LoCoMo, the outside check, level (0.726 against
 * 0.725). It costs a little more than `hybrid` since its graph reads are batched (p50 17.6 ms
 * against 16.3 ms through `wrangler dev`, fourteenth round).
 */
export const DEFAULT_MODE: SearchMode = 'hybrid_graph';
export const MAX_K = 50;
/** The widest window of turns a query may ask for around each hit (store/neighbours.ts). */
export const MAX_NEIGHBOURS = 5;

export interface QueryInput {
  contextId: string;
  query: string;
  mode: SearchMode;
  k: number;
  lens: LensInput | undefined;
  kinds?: ItemKind[] | undefined;
  /** Also return facts closed by supersession (left out by default: they are history). */
  includeSuperseded?: boolean | undefined;
  /** Turns before and after each hit in its session to return with it (0: none). */
  neighbours?: number | undefined;
  /** ISO 8601 instant relative periods in the query are resolved against (default: now). */
  asOf?: string | undefined;
  /** Also return each arm's part in each hit's score (absent: the answer is as it always was). */
  explain?: boolean | undefined;
}

// A type alias, not an interface: MCP tool outputs must be assignable to Record<string, unknown>.
export type QueryOutput = {
  /** The mode actually used (`bm25` while items carry another embedding model's vectors). */
  mode: SearchMode;
  results: SearchHit[];
  /** Why `mode` differs from the one asked for, when it does. */
  note?: string;
};

/**
 * A knowledge query in one of the four modes, inside the caller's lens: ONE store call, which
 * also decides the mode. While some items still carry vectors of another embedding model, vector
 * scores would compare two models, so the store runs the query as `bm25`; the answer says so and
 * re-embedding is requested.
 */
export async function query(
  deps: OperationDeps,
  auth: AuthContext,
  input: QueryInput,
): Promise<QueryOutput> {
  const lens = resolveLens(auth, 'memory:read', input.lens);
  await requireContext(deps, auth, input.contextId);
  const planned = await runQuery(deps, input.contextId, {
    mode: input.mode,
    text: input.query,
    k: input.k,
    lens,
    ...(input.kinds ? { kinds: input.kinds } : {}),
    ...(input.includeSuperseded ? { includeSuperseded: true } : {}),
    ...(input.neighbours ? { neighbours: input.neighbours } : {}),
    ...(input.asOf ? { asOf: input.asOf } : {}),
    ...(input.explain ? { explain: true } : {}),
  });
  if (planned.staleVectors === 0 || planned.mode === input.mode) {
    return { mode: planned.mode, results: planned.hits };
  }
  // Best effort: the next query asks again if this fails.
  await requestReembed(deps, input.contextId).catch(() => undefined);
  return {
    mode: planned.mode,
    results: planned.hits,
    note: `${planned.staleVectors} item(s) are not yet embedded with ${deps.embedder.modelId} (re-embedding in the background); this query used bm25 instead of ${input.mode}`,
  };
}

/**
 * Embeds the query text in the Worker when the mode needs it, then plans and runs the search in
 * the Context's store in one call. No authorisation here: callers resolve the lens and Context.
 */
export async function runQuery(
  deps: OperationDeps,
  contextId: string,
  request: Omit<SearchRequest, 'vector'>,
): Promise<PlannedSearch> {
  const values =
    request.mode === 'bm25' ? undefined : (await deps.embedder.embed([request.text]))[0];
  const full: SearchRequest = {
    ...request,
    // "Last week" in a question means the week before it was asked, unless the caller says when
    // that was (a replayed conversation, a test): every query path resolves against the same now.
    asOf: request.asOf ?? new Date().toISOString(),
    vector: values ? { modelId: deps.embedder.modelId, values } : null,
  };
  // tsc gives up ("excessively deep") on the stub's mapped RPC type of this method; the method
  // returns plain data, which structured clone delivers unchanged, so its own signature holds.
  const store = deps.store(contextId) as unknown as {
    query(r: SearchRequest): Promise<PlannedSearch>;
  };
  return store.query(full);
}

/** The hits of `runQuery` (for callers that do not report the mode, e.g. the context block). */
export async function searchContext(
  deps: OperationDeps,
  contextId: string,
  request: Omit<SearchRequest, 'vector'>,
): Promise<SearchHit[]> {
  return (await runQuery(deps, contextId, request)).hits;
}
