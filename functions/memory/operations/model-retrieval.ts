import type { MemoryRecord } from '../inference/records.ts';
import type { SearchMode } from '../store/types.ts';
import type { ModelProvider } from '../models/provider.ts';
import type { ContextRow } from './contexts.ts';
import type { OperationDeps } from './deps.ts';
import { embedCharged } from './model-embed.ts';
import { DEFAULT_MODE } from './query.ts';
import { requestReembed } from './reembed.ts';

export interface Retrieval {
  memories: MemoryRecord[];
  /** The mode actually used: `bm25` while vectors of another embedding model remain. */
  mode: SearchMode;
  /** Why the mode differs from the one asked for, when it does. */
  note: string | null;
}

export interface RetrievalPlan {
  mode: SearchMode;
  note: string | null;
}

/**
 * The mode a query can honestly run in. While some items still carry vectors of a previous
 * embedding model (the `reembed` job is catching up), vector scores would compare vectors of two
 * models, so the query falls back to `bm25`, says so, and asks for re-embedding.
 */
export async function planRetrieval(
  deps: OperationDeps,
  contextId: string,
  wanted: SearchMode,
): Promise<RetrievalPlan> {
  if (wanted === 'bm25') return { mode: wanted, note: null };
  const stale = await deps.store(contextId).modelStaleVectors(deps.embedder.modelId);
  if (stale === 0) return { mode: wanted, note: null };
  // Best effort: the next query asks again if this fails.
  await requestReembed(deps, contextId).catch(() => undefined);
  return {
    mode: 'bm25',
    note: `${stale} item(s) are not yet embedded with ${deps.embedder.modelId} (re-embedding in the background); this query used bm25 instead of ${wanted}`,
  };
}

/** The retrieval every model-backed path starts from (with the fallback of `planRetrieval`). */
export async function retrieveMemory(
  deps: OperationDeps,
  input: {
    contextId: string;
    text: string;
    lens: string[][];
    k: number;
    mode?: SearchMode;
    includeHistory?: boolean;
    /** Charge the query embedding to the Context (model-backed paths). */
    charge?: { context: ContextRow; operation: string; provider: ModelProvider };
  },
): Promise<Retrieval> {
  const store = deps.store(input.contextId);
  const { mode, note } = await planRetrieval(deps, input.contextId, input.mode ?? DEFAULT_MODE);
  const values =
    mode === 'bm25'
      ? undefined
      : input.charge
        ? (
            await embedCharged(
              deps,
              input.charge.context,
              input.charge.operation,
              input.charge.provider,
              [input.text],
            )
          )[0]
        : (await deps.embedder.embed([input.text]))[0];
  const items = await store.modelRetrieve({
    mode,
    text: input.text,
    vector: values ? { modelId: deps.embedder.modelId, values } : null,
    k: input.k,
    lens: input.lens,
    includeHistory: input.includeHistory ?? false,
  });
  return {
    memories: items.map((i) => ({
      id: i.id,
      kind: i.kind,
      content: i.content,
      scopes: i.scopes,
      created_at: i.created_at,
      valid_until: i.valid_until,
      score: i.score,
    })),
    mode,
    note,
  };
}
