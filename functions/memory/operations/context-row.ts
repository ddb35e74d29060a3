import type { BackupColumns } from './backup-schedule.ts';

/** A Context's row in the D1 registry (`contexts`), as the operations read it. */
export interface ContextRow extends BackupColumns {
  id: string;
  namespace: string | null;
  token_limit: number | null;
  enforcement_blocked: number;
  schema_version: number;
  usage_tokens: number;
  /** Per-file upload limit in bytes; null (or absent before D1 migration 0011) = the default. */
  max_upload_bytes?: number | null;
  created_at: string;
  updated_at: string;
}
