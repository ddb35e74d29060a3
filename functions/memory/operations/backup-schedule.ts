/**
 * A Context's scheduled-backup setting (D1 migration 0030): `PATCH /contexts/{id}` with
 * `backup: { every_hours, keep }` turns it on, `backup: null` off. The scheduler reads it
 * (jobs/scheduled-backup.ts).
 */

/** Backups kept when `keep` is not given: a week of daily ones. */
export const DEFAULT_BACKUP_KEEP = 7;

export interface BackupSetting {
  /** Hours between two backups (1..8760). */
  every_hours: number;
  /** How many of the newest backups R2 keeps (1..1000, default 7). */
  keep: number;
}

/** The columns as read from `contexts` (absent before migration 0030). */
export interface BackupColumns {
  backup_every_hours?: number | null;
  backup_keep?: number | null;
}

export function backupSettingOf(row: BackupColumns): BackupSetting | null {
  if (row.backup_every_hours === null || row.backup_every_hours === undefined) return null;
  return { every_hours: row.backup_every_hours, keep: row.backup_keep ?? DEFAULT_BACKUP_KEEP };
}

export async function saveBackupSetting(
  db: D1Database,
  contextId: string,
  setting: BackupSetting | null,
): Promise<void> {
  await db
    .prepare(
      'UPDATE contexts SET backup_every_hours = ?, backup_keep = ?, backup_last_ms = NULL WHERE id = ?',
    )
    .bind(setting?.every_hours ?? null, setting?.keep ?? null, contextId)
    .run();
}
