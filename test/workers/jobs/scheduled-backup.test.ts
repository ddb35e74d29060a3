import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { writeR2Stream } from '../../../functions/memory/jobs/write-r2-stream.ts';
import { reconcileBlobs } from '../../../functions/memory/jobs/reconcile-blobs.ts';
import { settle, uploadRaw } from '../documents/documents-helpers.ts';
import {
  backupTick as tick,
  HOUR,
  patchContext as patch,
  r2Keys as keys,
} from './backup-helpers.ts';
import { api, createContext } from './helpers.ts';

/** Scheduled backups to R2 with retention, restore from one, and orphan reconciliation. */

const rows = (text: string) => text.trim().split('\n').slice(1, -1).sort();

describe('the backup setting', () => {
  it('is set, shown and cleared with PATCH /contexts/{id}, and range-checked', async () => {
    await createContext('sb-setting');
    const on = await patch('sb-setting', { backup: { every_hours: 24, keep: 7 } });
    expect(on.status).toBe(200);
    expect(((await on.json()) as { backup: unknown }).backup).toEqual({ every_hours: 24, keep: 7 });
    const got = await api('/api/v1/contexts/sb-setting');
    expect(((await got.json()) as { backup: unknown }).backup).toEqual({
      every_hours: 24,
      keep: 7,
    });
    expect((await patch('sb-setting', { backup: { every_hours: 0, keep: 1 } })).status).toBe(400);
    expect((await patch('sb-setting', { backup: { every_hours: 1, keep: 0 } })).status).toBe(400);
    const off = await patch('sb-setting', { backup: null });
    expect(((await off.json()) as { backup: unknown }).backup).toBeNull();
  });
});

describe('scheduled backups', () => {
  it('back up opted-in Contexts once per period, keep the newest N, and restore', async () => {
    await createContext('sb-on');
    await createContext('sb-off');
    await api('/api/v1/sb-on/facts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Backups run every six hours.' }),
    });
    const doc = await uploadRaw(
      'sb-on',
      'A document whose file must be in the backup.',
      'text/plain',
    );
    expect(doc.status).toBe(202);
    const { id, sha256 } = (await doc.json()) as { id: string; sha256: string };
    // Processed before the first backup: the live export compared at the end must not change
    // after the backup was taken (under load the processing job used to land in between).
    expect((await settle('sb-on', id)).status).toBe('ready');
    expect((await patch('sb-on', { backup: { every_hours: 6, keep: 2 } })).status).toBe(200);

    const t0 = Date.now();
    expect(await tick('sb-on', t0)).toBe(1);
    expect(await tick('sb-off', t0)).toBe(0);
    // Not due again within the period.
    expect(await tick('sb-on', t0 + HOUR)).toBe(0);
    expect(await tick('sb-on', t0 + 6 * HOUR)).toBe(1);
    expect(await tick('sb-on', t0 + 12 * HOUR)).toBe(1);

    const exports = (await keys('backups/sb-on/')).filter((k) => k.endsWith('.ndjson'));
    expect(exports).toHaveLength(2);
    for (const k of exports)
      expect(k).toMatch(/^backups\/sb-on\/\d{4}-\d{2}-\d{2}T[\d-]+Z\.ndjson$/);
    expect(await keys('backups/sb-off/')).toEqual([]);
    expect(await keys('backups/sb-on/blobs/')).toEqual([`backups/sb-on/blobs/${sha256}`]);

    // Restore the newest backup, as the runbook does: import, then put the files back.
    const newest = await env.BLOBS.get(exports[1] ?? '');
    const text = (await newest?.text()) ?? '';
    await createContext('sb-restored');
    const imported = await api('/api/v1/contexts/sb-restored/import', {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: text,
    });
    expect(imported.status).toBe(200);
    const blob = await env.BLOBS.get(`backups/sb-on/blobs/${sha256}`);
    const put = await api(`/api/v1/contexts/sb-restored/import/blobs/${sha256}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: (await blob?.arrayBuffer()) ?? new ArrayBuffer(0),
    });
    expect(await put.json()).toMatchObject({ sha256, restored: true });
    const restoredFile = await api(`/api/v1/contexts/sb-restored/export/blobs/${sha256}`);
    expect(await restoredFile.text()).toBe('A document whose file must be in the backup.');
    const source = await (await api('/api/v1/contexts/sb-on/export')).text();
    const again = await (await api('/api/v1/contexts/sb-restored/export')).text();
    // Identical apart from the document's blob key, which names the restored Context.
    expect(rows(again)).toEqual(
      rows(source.replaceAll('documents/sb-on/', 'documents/sb-restored/')),
    );
    // Three backups, an import and an export: past the default 5 s on a loaded machine.
  }, 60_000);

  it('writes a stream larger than one part as a multipart upload, byte for byte', async () => {
    const size = 17 * 1024 * 1024 + 123;
    const chunk = new Uint8Array(1024 * 1024 + 7).map((_, i) => i % 251);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent >= size) return c.close();
        const n = Math.min(chunk.length, size - sent);
        c.enqueue(chunk.subarray(0, n));
        sent += n;
      },
    });
    expect(await writeR2Stream(env.BLOBS, 'backups/sb-multi/x.ndjson', stream, 'text/plain')).toBe(
      size,
    );
    const stored = await env.BLOBS.get('backups/sb-multi/x.ndjson');
    const bytes = new Uint8Array((await stored?.arrayBuffer()) ?? new ArrayBuffer(0));
    expect(bytes.length).toBe(size);
    expect(bytes[chunk.length + 5]).toBe(chunk[5]);
    expect(bytes[size - 1]).toBe(((size - 1) % chunk.length) % 251);
    // 17 MiB through local R2 outlasts the default 5 s on a loaded machine; a limit, not a measure.
  }, 60_000);
});

describe('blob companion routes', () => {
  it('refuse a file that does not match its document, keeping nothing', async () => {
    await createContext('sb-blob-src');
    const doc = await uploadRaw('sb-blob-src', 'The real bytes.', 'text/plain');
    const { sha256 } = (await doc.json()) as { sha256: string };
    const out = await api(`/api/v1/contexts/sb-blob-src/export/blobs/${sha256}`);
    expect(out.status).toBe(200);
    expect(await out.text()).toBe('The real bytes.');
    expect((await api(`/api/v1/contexts/sb-blob-src/export/blobs/${'0'.repeat(64)}`)).status).toBe(
      404,
    );
    expect((await api('/api/v1/contexts/sb-blob-src/export/blobs/not-a-hash')).status).toBe(400);

    const text = await (await api('/api/v1/contexts/sb-blob-src/export')).text();
    await createContext('sb-blob-dst');
    await api('/api/v1/contexts/sb-blob-dst/import', {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: text,
    });
    const wrong = await api(`/api/v1/contexts/sb-blob-dst/import/blobs/${sha256}`, {
      method: 'PUT',
      body: 'Other bytes, same n.',
    });
    expect(wrong.status).toBe(400);
    expect(await keys('documents/sb-blob-dst/')).toEqual([]);
  });
});

describe('orphan reconciliation', () => {
  it('removes blobs no document references once older than the grace period', async () => {
    await createContext('sb-orphans');
    const doc = await uploadRaw('sb-orphans', 'A document that stays.', 'text/plain');
    expect(doc.status).toBe(202);
    const { id } = (await doc.json()) as { id: string };
    await env.BLOBS.put('documents/sb-orphans/doc_orphan1', 'left behind by a crash');
    expect(await keys('documents/sb-orphans/')).toHaveLength(2);
    // Within the grace period (an upload may be in flight): nothing is removed.
    expect(await reconcileBlobs(env, 'sb-orphans', Date.now())).toEqual([]);
    const removed = await reconcileBlobs(env, 'sb-orphans', Date.now() + 2 * HOUR);
    expect(removed).toEqual(['documents/sb-orphans/doc_orphan1']);
    expect(await keys('documents/sb-orphans/')).toEqual([
      `documents/sb-orphans/${id.replace(/^document:/, '')}`,
    ]);
  });
});
