import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { pruneBackups } from '../../../functions/memory/jobs/backup-retention.ts';
import {
  DELETED_BACKUP_RETENTION_MS,
  runContextPurges,
} from '../../../functions/memory/jobs/context-purge.ts';
import { settle, uploadRaw } from '../documents/documents-helpers.ts';
import { backupExports, backupTick, HOUR, patchContext, r2Keys } from './backup-helpers.ts';
import { api, createContext } from './helpers.ts';

/** Issue 16: backups keep the newest N with the files they need; a deleted Context's R2 goes. */

async function upload(ctx: string, text: string): Promise<{ id: string; sha256: string }> {
  const res = await uploadRaw(ctx, text, 'text/plain');
  expect(res.status).toBe(202);
  const doc = (await res.json()) as { id: string; sha256: string };
  // Processed first, so no processing job lands between a backup and what it is compared with.
  expect((await settle(ctx, doc.id)).status).toBe('ready');
  return doc;
}

async function json<T>(key: string): Promise<T> {
  const object = await env.BLOBS.get(key);
  if (object === null) throw new Error(`no R2 object ${key}`);
  return (await object.json()) as T;
}

describe('the number of backups kept', () => {
  it('defaults to 7 and is validated', async () => {
    await createContext('br-default');
    const on = await patchContext('br-default', { backup: { every_hours: 24 } });
    expect(on.status).toBe(200);
    expect(((await on.json()) as { backup: unknown }).backup).toEqual({ every_hours: 24, keep: 7 });
    for (const keep of [0, 1001, 2.5, '3', null]) {
      const bad = await patchContext('br-default', { backup: { every_hours: 24, keep } });
      expect(bad.status).toBe(400);
      expect(bad.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await bad.json()) as { detail: string }).detail).toMatch(/keep/);
    }
    const got = await api('/api/v1/contexts/br-default');
    expect(((await got.json()) as { backup: unknown }).backup).toEqual({
      every_hours: 24,
      keep: 7,
    });
  });
});

describe('pruning scheduled backups', () => {
  it('keeps the newest N exports, their manifests and only the files they reference', async () => {
    const ctx = 'br-prune';
    await createContext(ctx);
    const first = await upload(ctx, 'Only the oldest backup has this file.');
    expect((await patchContext(ctx, { backup: { every_hours: 1, keep: 2 } })).status).toBe(200);
    const t0 = Date.now();
    expect(await backupTick(ctx, t0)).toBe(1);
    const [oldest] = await backupExports(ctx);
    expect(await json(`${oldest?.slice(0, -'.ndjson'.length)}.manifest.json`)).toMatchObject({
      export: oldest,
      blobs: [first.sha256],
    });

    // The document goes, another comes: the next backups reference only the new file.
    const del = await api(`/api/v1/${ctx}/documents/${first.id}`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    const second = await upload(ctx, 'Every later backup has this file.');
    expect(await backupTick(ctx, t0 + HOUR)).toBe(1);
    expect(await backupTick(ctx, t0 + 2 * HOUR)).toBe(1);

    const exports = await backupExports(ctx);
    expect(exports).toHaveLength(2);
    expect(exports).not.toContain(oldest);
    const top = (await r2Keys(`backups/${ctx}/`)).filter((k) => !k.includes('/blobs/'));
    expect(top).toEqual(
      [
        ...exports,
        ...exports.map((k) => `${k.slice(0, -'.ndjson'.length)}.manifest.json`),
        `backups/${ctx}/latest.json`,
      ].sort(),
    );
    expect(await json(`backups/${ctx}/latest.json`)).toEqual({ key: exports[1] });
    for (const k of exports) {
      const manifest = await json<{ blobs: string[] }>(
        `${k.slice(0, -'.ndjson'.length)}.manifest.json`,
      );
      expect(manifest.blobs).toEqual([second.sha256]);
    }

    // The first file is unreferenced now but young: a backup running at the same moment may
    // have copied it without having written its manifest yet, so it stays for the grace period.
    const blobs = [first.sha256, second.sha256].map((s) => `backups/${ctx}/blobs/${s}`).sort();
    expect(await r2Keys(`backups/${ctx}/blobs/`)).toEqual(blobs);
    const pruned = await pruneBackups(env.BLOBS, ctx, 2, Date.now() + 2 * HOUR);
    expect(pruned).toEqual({ exports: [], blobs: [`backups/${ctx}/blobs/${first.sha256}`] });
    expect(await r2Keys(`backups/${ctx}/blobs/`)).toEqual([
      `backups/${ctx}/blobs/${second.sha256}`,
    ]);
    // Three backups through the real job: past the default 5 s on a loaded machine (a limit only).
  }, 60_000);

  it('keeps every file while a kept backup predates manifests', async () => {
    const ctx = 'br-legacy';
    await env.BLOBS.put(`backups/${ctx}/2026-01-01T00-00-00-000Z.ndjson`, 'old format');
    await env.BLOBS.put(`backups/${ctx}/blobs/${'a'.repeat(64)}`, 'a file');
    const pruned = await pruneBackups(env.BLOBS, ctx, 1, Date.now() + 2 * HOUR);
    expect(pruned).toEqual({ exports: [], blobs: [] });
    expect(await r2Keys(`backups/${ctx}/blobs/`)).toHaveLength(1);
  });
});

describe('deleting a Context', () => {
  it('deletes its files at the next tick and its backups after the retention period', async () => {
    const ctx = 'br-deleted';
    await createContext(ctx);
    const doc = await upload(ctx, 'A file of a Context that is about to be deleted.');
    expect((await patchContext(ctx, { backup: { every_hours: 1, keep: 3 } })).status).toBe(200);
    expect(await backupTick(ctx, Date.now())).toBe(1);
    const backups = await r2Keys(`backups/${ctx}/`);
    expect(backups).toContain(`backups/${ctx}/blobs/${doc.sha256}`);
    expect(await r2Keys(`documents/${ctx}/`)).toHaveLength(1);

    expect((await api(`/api/v1/contexts/${ctx}`, { method: 'DELETE' })).status).toBe(204);
    const deletedAt = Date.now();
    // Created again under the same id: the new Context's files are its own and stay.
    await new Promise((r) => setTimeout(r, 5));
    await createContext(ctx);
    const reborn = await upload(ctx, 'A file of the new Context under the same id.');

    const now = Date.now();
    const first = await runContextPurges(env, now);
    expect(first.files).toContain(ctx);
    expect(first.backups).not.toContain(ctx);
    expect(await r2Keys(`documents/${ctx}/`)).toEqual([
      `documents/${ctx}/${reborn.id.replace(/^document:/, '')}`,
    ]);
    // Still restorable from its backups for the retention period.
    expect(await r2Keys(`backups/${ctx}/`)).toEqual(backups);
    expect((await runContextPurges(env, now + HOUR)).backups).not.toContain(ctx);

    const later = await runContextPurges(env, deletedAt + DELETED_BACKUP_RETENTION_MS + 1);
    expect(later.backups).toContain(ctx);
    expect(await r2Keys(`backups/${ctx}/`)).toEqual([]);
    const left = await env.DB.prepare(
      'SELECT COUNT(*) AS n FROM context_purges WHERE context_id = ?',
    )
      .bind(ctx)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
    expect(await r2Keys(`documents/${ctx}/`)).toHaveLength(1);
  }, 60_000);
});
