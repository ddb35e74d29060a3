import { enqueueJob } from '../jobs/enqueue.ts';
import type { OperationDeps } from './deps.ts';

export const REEMBED_KIND = 'reembed';
const BATCH = 64;
const BATCHES_PER_JOB = 8;

/**
 * The `reembed` job body: gives every item still carrying another model's vector (or none) a
 * vector of the configured embedding model, a batch at a time. Returns how many remain; the job
 * re-enqueues itself while some do, so one run stays short.
 */
export async function reembedContext(deps: OperationDeps, contextId: string): Promise<number> {
  const store = deps.store(contextId);
  const modelId = deps.embedder.modelId;
  for (let b = 0; b < BATCHES_PER_JOB; b++) {
    const stale = await store.modelStaleItems(modelId, BATCH);
    if (stale.length === 0) return 0;
    const vectors = await deps.embedder.embed(stale.map((s) => s.content));
    await store.modelStoreVectors(
      modelId,
      stale.flatMap((s, i) => {
        const values = vectors[i];
        return values ? [{ seq: s.seq, values }] : [];
      }),
    );
  }
  return store.modelStaleVectors(modelId);
}

/** Queues re-embedding for a Context (deduplicated: one pending job per Context). */
export async function requestReembed(deps: OperationDeps, contextId: string): Promise<void> {
  await enqueueJob(deps.env, { kind: REEMBED_KIND, context_id: contextId }, { dedup: true });
}
