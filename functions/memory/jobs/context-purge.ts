import { backupPrefix } from './backup-retention.ts';

/**
 * What deleting a Context leaves in R2 is deleted by the scheduler, not by the DELETE request
 * (which then stays quick and cannot half-fail on storage): the documents' files at the next
 * tick, the scheduled backups after a retention period during which the deleted Context can
 * still be restored from them (docs/operations.md). Rows come from D1 migration 0050.
 */

/** How long a deleted Context's backups stay restorable. */
export const DELETED_BACKUP_RETENTION_MS = 7 * 24 * 3_600_000;
/** Bounds one tick's work; a purge that is not finished continues at the next tick. */
const MAX_PURGES_PER_TICK = 20;
const MAX_PAGES_PER_PREFIX = 10;

interface PurgeRow {
  context_id: string;
  deleted_at_ms: number;
  files_done: number;
  backups_after_ms: number;
}

export interface PurgeDeps {
  DB: D1Database;
  BLOBS: R2Bucket;
}

/** Records a deleted Context's R2 leftovers for the scheduler (a statement for DELETE's batch). */
export function recordPurge(db: D1Database, contextId: string, now: number): D1PreparedStatement {
  return db
    .prepare(
      'INSERT OR IGNORE INTO context_purges (context_id, deleted_at_ms, backups_after_ms) VALUES (?, ?, ?)',
    )
    .bind(contextId, now, now + DELETED_BACKUP_RETENTION_MS);
}

/** Deletes objects under `prefix` written before `before`; true once none is left. */
async function purgePrefix(bucket: R2Bucket, prefix: string, before: number): Promise<boolean> {
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES_PER_PREFIX; page++) {
    const listed = await bucket.list({ prefix, cursor });
    const old = listed.objects.filter((o) => o.uploaded.getTime() <= before).map((o) => o.key);
    if (old.length > 0) await bucket.delete(old);
    if (!listed.truncated) return true;
    cursor = listed.cursor;
  }
  return false;
}

export interface PurgeReport {
  /** Contexts whose documents' files are now all deleted. */
  files: string[];
  /** Contexts whose backups are now all deleted (their purge is complete). */
  backups: string[];
}

/** One scheduler tick's share of the purges that are due at `now`. */
export async function runContextPurges(env: PurgeDeps, now: number): Promise<PurgeReport> {
  const { results } = await env.DB.prepare(
    `SELECT context_id, deleted_at_ms, files_done, backups_after_ms FROM context_purges
      WHERE files_done = 0 OR backups_after_ms <= ? ORDER BY deleted_at_ms LIMIT ?`,
  )
    .bind(now, MAX_PURGES_PER_TICK)
    .all<PurgeRow>();
  const report: PurgeReport = { files: [], backups: [] };
  for (const row of results) {
    const key = [row.context_id, row.deleted_at_ms] as const;
    if (row.files_done === 0) {
      if (!(await purgePrefix(env.BLOBS, `documents/${row.context_id}/`, row.deleted_at_ms))) {
        continue;
      }
      await env.DB.prepare(
        'UPDATE context_purges SET files_done = 1 WHERE context_id = ? AND deleted_at_ms = ?',
      )
        .bind(...key)
        .run();
      report.files.push(row.context_id);
    }
    if (row.backups_after_ms > now) continue;
    if (!(await purgePrefix(env.BLOBS, backupPrefix(row.context_id), row.deleted_at_ms))) continue;
    await env.DB.prepare('DELETE FROM context_purges WHERE context_id = ? AND deleted_at_ms = ?')
      .bind(...key)
      .run();
    report.backups.push(row.context_id);
  }
  return report;
}
