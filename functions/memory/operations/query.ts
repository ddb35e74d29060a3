import { resolveLens } from '../auth/guards.ts';
import type { AuthContext } from '../auth/principal.ts';
import type { LensInput } from '../scopes/lens.ts';
import type { ItemKind, SearchHit, SearchMode, SearchRequest } from '../store/types.ts';
import { requireContext } from './contexts.ts';
import type { OperationDeps } from './deps.ts';
import { planRetrieval } from './model-retrieval.ts';

export const DEFAULT_K = 10;
export const MAX_K = 50;

export interface QueryInput {
  contextId: string;
  query: string;
  mode: SearchMode;
  k: number;
  lens: LensInput | undefined;
  kinds?: ItemKind[] | undefined;
  /** Also return facts closed by supersession (left out by default: they are history). */
  includeSuperseded?: boolean | undefined;
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
 * A knowledge query in one of the four modes, inside the caller's lens. While some items still
 * carry vectors of another embedding model, vector scores would compare two models, so the query
 * runs as `bm25` and says so (`planRetrieval`).
 */
export async function query(
  deps: OperationDeps,
  auth: AuthContext,
  input: QueryInput,
): Promise<QueryOutput> {
  const lens = resolveLens(auth, 'memory:read', input.lens);
  await requireContext(deps, auth, input.contextId);
  const plan = await planRetrieval(deps, input.contextId, input.mode);
  const results = await searchContext(deps, input.contextId, {
    mode: plan.mode,
    text: input.query,
    k: input.k,
    lens,
    ...(input.kinds ? { kinds: input.kinds } : {}),
    ...(input.includeSuperseded ? { includeSuperseded: true } : {}),
  });
  return { mode: plan.mode, results, ...(plan.note ? { note: plan.note } : {}) };
}

/**
 * Embeds the query text when the mode needs it and runs the search in the Context's store.
 * No authorisation here: callers resolve the lens and the Context first.
 */
export async function searchContext(
  deps: OperationDeps,
  contextId: string,
  request: Omit<SearchRequest, 'vector'>,
): Promise<SearchHit[]> {
  const values =
    request.mode === 'bm25' ? undefined : (await deps.embedder.embed([request.text]))[0];
  const full: SearchRequest = {
    ...request,
    vector: values ? { modelId: deps.embedder.modelId, values } : null,
  };
  // tsc gives up ("excessively deep") on the stub's mapped RPC type of this method; the method
  // returns plain data, which structured clone delivers unchanged, so its own signature holds.
  const store = deps.store(contextId) as unknown as {
    search(r: SearchRequest): Promise<SearchHit[]>;
  };
  return store.search(full);
}
