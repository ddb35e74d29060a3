import { z } from 'zod';
import { exportStream } from '../operations/context-backup.ts';
import { contextStore } from '../store/context-store.ts';
import type { ContextSelection } from './context-versions.ts';
import { defineJob } from './define-job.ts';
import { enqueueForContexts, type EnqueueDeps } from './enqueue.ts';
import { jobBaseSchema } from './messages.ts';
import { writeR2Stream } from './write-r2-stream.ts';

/**
 * Scheduled backups to R2 (opt-in per Context, `PATCH /contexts/{id}` `backup`): the scheduler
 * enqueues a `context_backup` job for every Context whose period has passed; the job streams
 * an export to `backups/{context}/{timestamp}.ndjson`, copies the documents' files it
 * references to `backups/{context}/blobs/{sha256}` (content-addressed: each file once), and
 * deletes all but the newest `keep` exports.
 */

export const CONTEXT_BACKUP_KIND = 'context_backup';
const MAX_DUE_PER_TICK = 100;

export const backupPrefix = (contextId: string): string => `backups/${contextId}/`;

/** Enqueues the backups that are due at `now` (ms) and stamps them, so each runs once a period. */
export async function enqueueDueBackups(env: EnqueueDeps, now: number): Promise<string[]> {
  const { results } = await env.DB.prepare(
    `SELECT id FROM contexts WHERE backup_every_hours IS NOT NULL
       AND (backup_last_ms IS NULL OR backup_last_ms + backup_every_hours * 3600000 <= ?)
     ORDER BY id LIMIT ?`,
  )
    .bind(now, MAX_DUE_PER_TICK)
    .all<{ id: string }>();
  const ids = results.map((r) => r.id);
  if (ids.length === 0) return [];
  const marks = ids.map(() => '?').join(', ');
  const selection: ContextSelection = {
    sql: `SELECT id FROM contexts WHERE id IN (${marks}) ORDER BY id`,
    binds: ids,
  };
  const jobs = await enqueueForContexts(env, CONTEXT_BACKUP_KIND, {}, selection);
  await env.DB.prepare(`UPDATE contexts SET backup_last_ms = ? WHERE id IN (${marks})`)
    .bind(now, ...ids)
    .run();
  return jobs;
}

async function listAll(bucket: R2Bucket, options: R2ListOptions): Promise<R2Object[]> {
  const out: R2Object[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ ...options, cursor });
    out.push(...page.objects);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor !== undefined);
  return out;
}

/** Copies every referenced document file not yet in the Context's backup blob prefix. */
async function copyBlobs(env: Env, contextId: string): Promise<void> {
  const store = contextStore(env, contextId);
  let cursor: string | undefined;
  do {
    const page = await env.BLOBS.list({ prefix: `documents/${contextId}/`, cursor });
    const live = await store.referencedBlobs(page.objects.map((o) => o.key));
    for (const blob of live) {
      const target = `${backupPrefix(contextId)}blobs/${blob.sha256}`;
      if (await env.BLOBS.head(target)) continue;
      const source = await env.BLOBS.get(blob.blob_key);
      if (source) await env.BLOBS.put(target, source.body, { httpMetadata: source.httpMetadata });
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor !== undefined);
}

/** Deletes all but the newest `keep` exports (keys sort by their timestamp). */
export async function pruneBackups(
  bucket: R2Bucket,
  contextId: string,
  keep: number,
): Promise<void> {
  const exports = (await listAll(bucket, { prefix: backupPrefix(contextId), delimiter: '/' }))
    .map((o) => o.key)
    .filter((k) => k.endsWith('.ndjson'))
    .sort();
  const old = exports.slice(0, Math.max(0, exports.length - keep));
  if (old.length > 0) await bucket.delete(old);
}

export const contextBackupSchema = jobBaseSchema.extend({ kind: z.literal(CONTEXT_BACKUP_KIND) });

export const contextBackupJob = defineJob(
  CONTEXT_BACKUP_KIND,
  contextBackupSchema,
  async (job, env) => {
    const row = await env.DB.prepare('SELECT backup_keep FROM contexts WHERE id = ?')
      .bind(job.context_id)
      .first<{ backup_keep: number | null }>();
    // A deleted Context, or backups turned off since: nothing to do.
    if (!row || row.backup_keep === null) return;
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const key = `${backupPrefix(job.context_id)}${stamp}.ndjson`;
    const stream = exportStream(contextStore(env, job.context_id), job.context_id);
    await writeR2Stream(env.BLOBS, key, stream, 'application/x-ndjson');
    await copyBlobs(env, job.context_id);
    await pruneBackups(env.BLOBS, job.context_id, row.backup_keep);
  },
);
