import type { RegisteredJob } from './define-job.ts';
import { consolidateJob } from './consolidate.ts';
import { contextBackupJob } from './context-backup.ts';
import { extractTurnsJob } from './extract-turns.ts';
import { contextMigrateJob } from './migrate-context.ts';
import { documentProcessJob } from './process-document.ts';
import { reconcileBlobsJob } from './reconcile-blobs.ts';
import { reembedJob } from './reembed.ts';

/**
 * Every job kind the worker role runs, keyed by `kind`. To add one (`extract_turns`, `reembed`,
 * `consolidate`, ...): write a module exporting `defineJob(kind, schema, run)` and list it here.
 */
const JOBS: RegisteredJob[] = [
  documentProcessJob,
  contextMigrateJob,
  extractTurnsJob,
  reembedJob,
  consolidateJob,
  contextBackupJob,
  reconcileBlobsJob,
];

export const jobRegistry: ReadonlyMap<string, RegisteredJob> = new Map(
  JOBS.map((job) => [job.kind, job]),
);
