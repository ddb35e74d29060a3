import { deleteKeys, listAll } from './r2-listing.ts';

/**
 * What R2 holds for one Context's scheduled backups, and how it is kept to the newest N:
 *
 *   backups/{context}/{timestamp}.ndjson         the export (sorts by time)
 *   backups/{context}/{timestamp}.manifest.json  the files that export references
 *   backups/{context}/latest.json                the newest export's key (restore-r2 .../latest)
 *   backups/{context}/blobs/{sha256}             the files, content-addressed: each stored once
 *
 * Pruning deletes the exports beyond the newest N with their manifests, then every file that no
 * kept manifest names. A file younger than the grace period stays: a backup running at the same
 * moment may have copied it before writing the manifest that names it.
 */

export const backupPrefix = (contextId: string): string => `backups/${contextId}/`;
export const manifestKeyOf = (exportKey: string): string =>
  `${exportKey.slice(0, -'.ndjson'.length)}.manifest.json`;
export const latestKeyOf = (contextId: string): string => `${backupPrefix(contextId)}latest.json`;
export const blobKeyOf = (contextId: string, sha256: string): string =>
  `${backupPrefix(contextId)}blobs/${sha256}`;

export const BACKUP_BLOB_GRACE_MS = 60 * 60_000;

export interface BackupManifest {
  export: string;
  /** sha256 of every document file the export references. */
  blobs: string[];
  bytes: number;
}

export interface Pruned {
  exports: string[];
  blobs: string[];
}

async function readManifest(bucket: R2Bucket, exportKey: string): Promise<BackupManifest | null> {
  const object = await bucket.get(manifestKeyOf(exportKey));
  return object === null ? null : ((await object.json()) as BackupManifest);
}

/** Keeps the newest `keep` exports of the Context and the files they reference. */
export async function pruneBackups(
  bucket: R2Bucket,
  contextId: string,
  keep: number,
  now: number = Date.now(),
  graceMs: number = BACKUP_BLOB_GRACE_MS,
): Promise<Pruned> {
  const prefix = backupPrefix(contextId);
  const exports = (await listAll(bucket, { prefix, delimiter: '/' }))
    .map((o) => o.key)
    .filter((k) => k.endsWith('.ndjson'))
    .sort();
  const old = exports.slice(0, Math.max(0, exports.length - keep));
  await deleteKeys(bucket, [...old, ...old.map(manifestKeyOf)]);

  const referenced = new Set<string>();
  for (const key of exports.slice(old.length)) {
    const manifest = await readManifest(bucket, key);
    // A backup written before manifests existed: what it needs is unknown, so every file stays.
    if (manifest === null) return { exports: old, blobs: [] };
    for (const sha of manifest.blobs) referenced.add(sha);
  }
  const unreferenced = (await listAll(bucket, { prefix: `${prefix}blobs/` }))
    .filter((o) => !referenced.has(o.key.slice(`${prefix}blobs/`.length)))
    .filter((o) => o.uploaded.getTime() <= now - graceMs)
    .map((o) => o.key);
  await deleteKeys(bucket, unreferenced);
  return { exports: old, blobs: unreferenced };
}
