import { env, evictDurableObject, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { agentKeyWithGrant, api, createContext, deliver } from '../jobs/helpers.ts';
import { uploadMultipart, uploadRaw } from './documents-helpers.ts';

async function setLimit(ctx: string, bytes: number): Promise<void> {
  await env.DB.prepare('UPDATE contexts SET max_upload_bytes = ? WHERE id = ?')
    .bind(bytes, ctx)
    .run();
}

function streamOf(chunks: number, size: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === chunks) {
        controller.close();
        return;
      }
      sent++;
      controller.enqueue(new Uint8Array(size).fill(97));
    },
  });
}

describe('upload size limit (413 payload-too-large)', () => {
  it('refuses from Content-Length, while streaming, and for a multipart file part', async () => {
    await createContext('doc-limit');
    await setLimit('doc-limit', 100);

    const declared = await uploadRaw('doc-limit', 'x'.repeat(101), 'text/plain', '?scopes=*');
    expect(declared.status).toBe(413);
    const problem = (await declared.json()) as { type: string; status: number; detail: string };
    expect(problem.type).toMatch(/\/payload-too-large$/);
    expect(problem.detail).toContain('100 bytes');

    // No Content-Length: the stream is counted and cut off once it passes the limit.
    const streamed = await uploadRaw('doc-limit', streamOf(3, 60), 'text/plain', '?scopes=*');
    expect(streamed.status).toBe(413);

    const multipart = await uploadMultipart(
      'doc-limit',
      new File(['y'.repeat(150)], 'big.txt', { type: 'text/plain' }),
      { scopes: '*' },
    );
    expect(multipart.status).toBe(413);

    // Nothing half-written: no document rows, no blobs.
    const listed = (await (await api('/api/v1/doc-limit/documents')).json()) as {
      documents: unknown[];
    };
    expect(listed.documents).toEqual([]);
    expect((await env.BLOBS.list({ prefix: 'documents/doc-limit/' })).objects).toEqual([]);

    // At the limit is fine, streamed or not.
    expect((await uploadRaw('doc-limit', 'z'.repeat(100), 'text/plain', '?scopes=*')).status).toBe(
      202,
    );
    expect((await uploadRaw('doc-limit', streamOf(2, 50), 'text/plain', '?scopes=*')).status).toBe(
      202,
    );
  });

  it('enforces a limit set through PATCH /contexts/{id}, and the default again after null', async () => {
    await createContext('doc-patched-limit');
    const patch = (max_upload_bytes: number | null) =>
      api('/api/v1/contexts/doc-patched-limit', {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ max_upload_bytes }),
      });
    expect((await patch(64)).status).toBe(200);
    const over = await uploadRaw('doc-patched-limit', 'a'.repeat(65), 'text/plain', '?scopes=*');
    expect(over.status).toBe(413);
    expect(((await over.json()) as { detail: string }).detail).toContain('64 bytes');
    const at = await uploadRaw('doc-patched-limit', 'b'.repeat(64), 'text/plain', '?scopes=*');
    expect(at.status).toBe(202);

    expect((await patch(null)).status).toBe(200);
    const back = await uploadRaw('doc-patched-limit', 'c'.repeat(65), 'text/plain', '?scopes=*');
    expect(back.status).toBe(202);
  });

  it('uses MAX_UPLOAD_BYTES when the Context sets no limit', async () => {
    await createContext('doc-default-limit');
    expect(Number(env.MAX_UPLOAD_BYTES)).toBe(50 * 1024 * 1024);
    const res = await api('/api/v1/doc-default-limit/documents?scopes=*', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'content-length': String(50 * 1024 * 1024 + 1) },
      body: streamOf(1, 10),
    });
    expect(res.status).toBe(413);
  });

  it('rejects a missing file part and an empty body with 400', async () => {
    await createContext('doc-empty');
    const form = new FormData();
    form.set('note', 'no file here');
    const noFile = await api('/api/v1/doc-empty/documents', { method: 'POST', body: form });
    expect(noFile.status).toBe(400);
    expect((await uploadRaw('doc-empty', '', 'text/plain', '?scopes=*')).status).toBe(400);
  });
});

describe('interrupted processing', () => {
  it('finishes once after the store is evicted mid-processing and the job is re-delivered', async () => {
    await createContext('doc-evict');
    const text = Array.from(
      { length: 30 },
      (_, i) => `Paragraph ${i} about the orchard survey.`,
    ).join('\n\n');
    const id = `doc_evict${Date.now().toString(36)}`;
    const store = env.CONTEXT_STORE.getByName('doc-evict');
    // Written straight to R2 and the store (no API call), so no queue message races this test.
    await env.BLOBS.put(`documents/doc-evict/${id}`, text);
    const created = await store.createDocument(
      {
        id,
        filename: 'orchard.txt',
        content_type: 'text/plain',
        size_bytes: text.length,
        sha256: 'f'.repeat(64),
        blob_key: `documents/doc-evict/${id}`,
        scopes: ['*'],
        password: null,
      },
      [['*']],
    );
    expect(created.ok).toBe(true);

    // A first attempt got as far as embedding and wrote chunks, then the object was evicted.
    expect(await store.markDocumentStep(id, 'extracting')).toBe(true);
    expect(await store.markDocumentStep(id, 'embedding')).toBe(true);
    await runInDurableObject(store, (_obj, state) => {
      state.storage.sql.exec(
        `INSERT INTO items (id, kind, content, scopes, source_id, created_at)
         VALUES ('chunk_partial', 'chunk', 'partial chunk from the crashed attempt', '["*"]', ?, ?)`,
        `document:${id}`,
        new Date().toISOString(),
      );
    });
    await evictDurableObject(store);

    const job = {
      kind: 'document_process',
      job_id: `job_evict_${id}`,
      context_id: 'doc-evict',
      document_id: id,
    };
    const first = await deliver('memory-jobs', [job], 2);
    expect(first.explicitAcks).toHaveLength(1);
    const doc = await store.getDocument(id);
    if (!doc.ok) throw new Error('expected the document');
    expect(doc.value.status).toBe('ready');
    const count = doc.value.chunk_count ?? 0;
    expect(count).toBeGreaterThan(0);

    const chunks = () =>
      runInDurableObject(store, (_obj, state) =>
        state.storage.sql
          .exec<{ content: string }>(`SELECT content FROM items WHERE kind = 'chunk' ORDER BY seq`)
          .toArray(),
      );
    expect((await chunks()).map((c) => c.content)).not.toContain(
      'partial chunk from the crashed attempt',
    );
    expect(await chunks()).toHaveLength(count);

    // Delivered again (e.g. the ack was lost): nothing changes.
    await evictDurableObject(store);
    const second = await deliver('memory-jobs', [job], 3);
    expect(second.explicitAcks).toHaveLength(1);
    expect(await chunks()).toHaveLength(count);
    const after = await store.getDocument(id);
    expect(after.ok && after.value.processing_completed_at).toBe(doc.value.processing_completed_at);
  });
});

describe('a dead-lettered document job', () => {
  it('leaves the document failed with its error and both timestamps', async () => {
    await createContext('doc-dead');
    const store = env.CONTEXT_STORE.getByName('doc-dead');
    const id = 'doc_deadletter';
    await store.createDocument(
      {
        id,
        filename: 'stuck.txt',
        content_type: 'text/plain',
        size_bytes: 5,
        sha256: 'e'.repeat(64),
        blob_key: `documents/doc-dead/${id}`,
        scopes: ['*'],
        password: 'not-kept',
      },
      [['*']],
    );
    expect(await store.markDocumentStep(id, 'extracting')).toBe(true);
    const job = {
      kind: 'document_process',
      job_id: 'job_dead_doc',
      context_id: 'doc-dead',
      document_id: id,
    };
    const result = await deliver('memory-jobs-dlq', [job], 4);
    expect(result.explicitAcks).toHaveLength(1);
    const doc = await store.getDocument(id);
    if (!doc.ok) throw new Error('expected the document');
    expect(doc.value.status).toBe('failed');
    expect(doc.value.error).toMatch(/^Processing failed on every attempt: /);
    expect(doc.value.processing_started_at).not.toBeNull();
    expect(doc.value.processing_completed_at).not.toBeNull();
  });
});

describe('upload scopes', () => {
  it('refuses scopes outside the key’s write grant before storing anything', async () => {
    await createContext('doc-scopes');
    const key = await agentKeyWithGrant('doc-scopes', 'doc-scopes-agent', ['team:eng']);
    const forbidden = await api('/api/v1/doc-scopes/documents?scopes=team:ops', {
      method: 'POST',
      key,
      headers: { 'content-type': 'text/plain' },
      body: 'ops only',
    });
    expect(forbidden.status).toBe(403);
    const allowed = await api('/api/v1/doc-scopes/documents?scopes=team:eng', {
      method: 'POST',
      key,
      headers: { 'content-type': 'text/plain' },
      body: 'engineering notes',
    });
    expect(allowed.status).toBe(202);
    expect((await env.BLOBS.list({ prefix: 'documents/doc-scopes/' })).objects).toHaveLength(1);
  });
});
