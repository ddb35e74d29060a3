import type { MemoryRecord } from '../inference/records.ts';
import type { SearchMode } from '../store/types.ts';
import type { OperationDeps } from './deps.ts';
import { requestReembed } from './reembed.ts';

export interface Retrieval {
  memories: MemoryRecord[];
  /** The mode actually used: `bm25` while vectors of another embedding model remain. */
  mode: SearchMode;
  /** Why the mode differs from the one asked for, when it does. */
  note: string | null;
}

/**
 * The retrieval every model-backed path starts from. While some items still carry vectors of a
 * previous embedding model (the `reembed` job is catching up), vector scores would compare
 * apples with pears, so the query falls back to `bm25` and says so.
 */
export async function retrieveMemory(
  deps: OperationDeps,
  input: {
    contextId: string;
    text: string;
    lens: string[][];
    k: number;
    mode?: SearchMode;
    includeHistory?: boolean;
  },
): Promise<Retrieval> {
  const store = deps.store(input.contextId);
  const wanted = input.mode ?? 'hybrid';
  const stale = wanted === 'bm25' ? 0 : await store.modelStaleVectors(deps.embedder.modelId);
  const mode: SearchMode = stale > 0 ? 'bm25' : wanted;
  if (stale > 0) {
    // Best effort: the scheduler's next tick or the next query asks again if this fails.
    await requestReembed(deps, input.contextId).catch(() => undefined);
  }
  const note =
    stale > 0
      ? `${stale} item(s) are not yet embedded with ${deps.embedder.modelId} (re-embedding in the background); this query used bm25 instead of ${wanted}`
      : null;
  const values = mode === 'bm25' ? undefined : (await deps.embedder.embed([input.text]))[0];
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
