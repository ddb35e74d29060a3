import { z } from 'zod';
import { contextStore } from '../store/context-store.ts';
import { defineJob } from './define-job.ts';
import type { MaintenanceHook } from './maintenance-hook.ts';
import { jobBaseSchema } from './messages.ts';

/**
 * Orphan reconciliation: R2 objects under `documents/{context}/` that no document row references
 * (a Worker that died between storing a file and recording it, or a delete whose R2 call failed)
 * are removed once older than the grace period, which leaves uploads in flight alone: their row
 * is written moments after their blob.
 */

export const RECONCILE_BLOBS_KIND = 'reconcile_blobs';
export const ORPHAN_GRACE_MS = 60 * 60_000;

export const RECONCILE_BLOBS_HOOK: MaintenanceHook = {
  kind: RECONCILE_BLOBS_KIND,
  everyMinutes: 6 * 60,
};

/** Deletes the Context's orphaned blobs uploaded before `now - graceMs`; returns their keys. */
export async function reconcileBlobs(
  env: Env,
  contextId: string,
  now: number = Date.now(),
  graceMs: number = ORPHAN_GRACE_MS,
): Promise<string[]> {
  const store = contextStore(env, contextId);
  const removed: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.BLOBS.list({ prefix: `documents/${contextId}/`, cursor });
    const old = page.objects.filter((o) => o.uploaded.getTime() <= now - graceMs);
    const live = new Set(
      (await store.referencedBlobs(old.map((o) => o.key))).map((b) => b.blob_key),
    );
    const orphans = old.map((o) => o.key).filter((k) => !live.has(k));
    if (orphans.length > 0) await env.BLOBS.delete(orphans);
    removed.push(...orphans);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor !== undefined);
  return removed;
}

export const reconcileBlobsSchema = jobBaseSchema.extend({ kind: z.literal(RECONCILE_BLOBS_KIND) });

export const reconcileBlobsJob = defineJob(
  RECONCILE_BLOBS_KIND,
  reconcileBlobsSchema,
  async (job, env) => {
    const removed = await reconcileBlobs(env, job.context_id);
    if (removed.length > 0) {
      console.log(`reconcile_blobs: removed ${removed.length} orphan(s) of ${job.context_id}`);
    }
  },
);
