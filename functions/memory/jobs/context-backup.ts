import { z } from 'zod';
import { exportStream } from '../operations/context-backup.ts';
import { contextStore } from '../store/context-store.ts';
import {
  backupPrefix,
  blobKeyOf,
  latestKeyOf,
  manifestKeyOf,
  pruneBackups,
  type BackupManifest,
} from './backup-retention.ts';
import type { ContextSelection } from './context-versions.ts';
import { defineJob } from './define-job.ts';
import { enqueueForContexts, type EnqueueDeps } from './enqueue.ts';
import { collectBlobRefs, type BlobRefs } from './export-blob-refs.ts';
import { jobBaseSchema } from './messages.ts';
import { writeR2Stream } from './write-r2-stream.ts';

/**
 * Scheduled backups to R2 (opt-in per Context, `PATCH /contexts/{id}` `backup`): the scheduler
 * enqueues a `context_backup` job for every Context whose period has passed; the job streams
 * an export to `backups/{context}/{timestamp}.ndjson`, copies the documents' files that export
 * references to `backups/{context}/blobs/{sha256}` (content-addressed: each file once), writes
 * the export's manifest and the `latest.json` pointer, then keeps the newest `keep` exports and
 * the files they need (jobs/backup-retention.ts has the layout).
 */

export const CONTEXT_BACKUP_KIND = 'context_backup';
const MAX_DUE_PER_TICK = 100;

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

/** Copies every file the export references that the backup prefix does not hold yet. */
async function copyBlobs(env: Env, contextId: string, refs: BlobRefs): Promise<void> {
  for (const [sha, liveKey] of refs) {
    const target = blobKeyOf(contextId, sha);
    if (await env.BLOBS.head(target)) continue;
    const source = await env.BLOBS.get(liveKey);
    // Deleted since its row was exported: that backup's document stays without a file, as a
    // restore reports (`npm run backup -- restore-r2`).
    if (source) await env.BLOBS.put(target, source.body, { httpMetadata: source.httpMetadata });
  }
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
    // A schema step filling its rows in pieces: an export now could not be restored. Due again
    // at the scheduler's next tick, so the backup runs once the step is done.
    if ((await contextStore(env, job.context_id).schemaStepUnderway()) !== null) {
      await env.DB.prepare('UPDATE contexts SET backup_last_ms = NULL WHERE id = ?')
        .bind(job.context_id)
        .run();
      return;
    }
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const key = `${backupPrefix(job.context_id)}${stamp}.ndjson`;
    const refs: BlobRefs = new Map();
    const stream = exportStream(contextStore(env, job.context_id), job.context_id).pipeThrough(
      collectBlobRefs(refs),
    );
    const bytes = await writeR2Stream(env.BLOBS, key, stream, 'application/x-ndjson');
    await copyBlobs(env, job.context_id, refs);
    const manifest: BackupManifest = { export: key, blobs: [...refs.keys()].sort(), bytes };
    const json = { httpMetadata: { contentType: 'application/json' } };
    await env.BLOBS.put(manifestKeyOf(key), JSON.stringify(manifest), json);
    // Written last: it never names an export whose files are not all copied yet.
    await env.BLOBS.put(latestKeyOf(job.context_id), JSON.stringify({ key }), json);
    await pruneBackups(env.BLOBS, job.context_id, row.backup_keep);
  },
);
