import { z } from '@hono/zod-openapi';
import { DEFAULT_BACKUP_KEEP } from '../operations/backup-schedule.ts';

/** `backup` of `PATCH /contexts/{id}`: scheduled backups to R2 (docs/operations.md). */
export const BackupSettingSchema = z
  .object({
    every_hours: z.number().int().min(1).max(8760).openapi({
      description:
        'Hours between two backups written to R2 as backups/{context}/{timestamp}.ndjson',
      example: 24,
    }),
    keep: z.number().int().min(1).max(1000).default(DEFAULT_BACKUP_KEEP).openapi({
      description:
        'How many of the newest backups are kept (default 7); older ones and the files only they needed are deleted',
      example: 7,
    }),
  })
  .strict()
  .openapi('BackupSetting', { description: 'Scheduled backups; null turns them off' });
