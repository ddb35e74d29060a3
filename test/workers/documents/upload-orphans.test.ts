import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { agentKeyWithGrant, api, createContext } from '../jobs/helpers.ts';
import { uploadMultipart, uploadRaw } from './documents-helpers.ts';

/** Every rejected upload leaves R2 exactly as it was: one test per path, blobs counted. */

async function blobCount(ctx: string): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await env.BLOBS.list({ prefix: `documents/${ctx}/`, cursor });
    count += page.objects.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor !== undefined);
  return count;
}

async function setLimit(ctx: string, bytes: number): Promise<void> {
  await env.DB.prepare('UPDATE contexts SET max_upload_bytes = ? WHERE id = ?')
    .bind(bytes, ctx)
    .run();
}

/** Runs `upload` against a fresh Context and checks its status and that no blob was added. */
async function rejected(
  ctx: string,
  status: number,
  upload: () => Promise<Response>,
  detail?: RegExp,
): Promise<void> {
  const before = await blobCount(ctx);
  const res = await upload();
  const body = await res.text();
  expect(res.status, body).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  if (detail) expect((JSON.parse(body) as { detail: string }).detail).toMatch(detail);
  expect(await blobCount(ctx)).toBe(before);
}

const file = (text = 'A small text document.') =>
  new File([text], 'notes.txt', { type: 'text/plain' });

describe('rejected uploads leave no blob', () => {
  it('multipart: scopes that are not JSON', async () => {
    await createContext('orph-json');
    await rejected(
      'orph-json',
      400,
      () => uploadMultipart('orph-json', file(), { scopes: '[not json' }),
      /scopes: not a JSON array/,
    );
  });

  it('multipart: scopes that are not an array of strings', async () => {
    await createContext('orph-array');
    await rejected(
      'orph-array',
      400,
      () => uploadMultipart('orph-array', file(), { scopes: '[1, 2]' }),
      /scopes: expected an array/,
    );
  });

  it('multipart: a scope path that is not valid', async () => {
    await createContext('orph-path');
    await rejected(
      'orph-path',
      400,
      () => uploadMultipart('orph-path', file(), { scopes: '["team:"]' }),
      /scopes/,
    );
  });

  it('multipart: a scope with a lone surrogate', async () => {
    await createContext('orph-surrogate');
    await rejected(
      'orph-surrogate',
      400,
      () => uploadMultipart('orph-surrogate', file(), { scopes: '["team:eng\\ud800"]' }),
      /scopes\[0\]: a lone surrogate/,
    );
  });

  it('multipart: a scope outside the key’s write grant', async () => {
    await createContext('orph-grant');
    const key = await agentKeyWithGrant('orph-grant', 'orph-agent', ['team:eng']);
    await rejected('orph-grant', 403, () => {
      const form = new FormData();
      form.set('file', file());
      form.set('scopes', '["team:sales"]');
      return api('/api/v1/orph-grant/documents', { method: 'POST', body: form, key });
    });
  });

  it('multipart: a filename with control characters', async () => {
    await createContext('orph-name');
    await rejected(
      'orph-name',
      400,
      () =>
        uploadMultipart(
          'orph-name',
          new File(['x'], 'bad\u0007name.txt', { type: 'text/plain' }),
          {},
        ),
      /filename/,
    );
  });

  it('multipart: no file part', async () => {
    await createContext('orph-nofile');
    await rejected('orph-nofile', 400, () => {
      const form = new FormData();
      form.set('scopes', '["team:eng"]');
      return api('/api/v1/orph-nofile/documents', { method: 'POST', body: form });
    });
  });

  it('multipart: an empty file', async () => {
    await createContext('orph-empty');
    await rejected('orph-empty', 400, () => uploadMultipart('orph-empty', file('')), /empty/);
  });

  it('multipart: a file over the Context’s limit', async () => {
    await createContext('orph-big');
    await setLimit('orph-big', 10);
    await rejected('orph-big', 413, () => uploadMultipart('orph-big', file('x'.repeat(100))));
  });

  it('multipart: a body that cannot be parsed', async () => {
    await createContext('orph-broken');
    await rejected('orph-broken', 400, () =>
      uploadRaw('orph-broken', 'not multipart at all', 'multipart/form-data; boundary=zzz'),
    );
  });

  it('raw: scopes in the query that are not valid', async () => {
    await createContext('orph-raw-scopes');
    await rejected('orph-raw-scopes', 400, () =>
      uploadRaw('orph-raw-scopes', 'text', 'text/plain', '?scopes=' + encodeURIComponent('[1]')),
    );
  });

  it('raw: a filename that is too long', async () => {
    await createContext('orph-raw-name');
    await rejected(
      'orph-raw-name',
      400,
      () => uploadRaw('orph-raw-name', 'text', 'text/plain', `?filename=${'a'.repeat(300)}`),
      /filename/,
    );
  });

  it('raw: an empty body', async () => {
    await createContext('orph-raw-empty');
    await rejected('orph-raw-empty', 400, () => uploadRaw('orph-raw-empty', '', 'text/plain'));
  });

  it('raw: an empty streamed body (no Content-Length)', async () => {
    await createContext('orph-raw-empty-stream');
    await rejected('orph-raw-empty-stream', 400, () =>
      uploadRaw(
        'orph-raw-empty-stream',
        new ReadableStream<Uint8Array>({ start: (c) => c.close() }),
        'text/plain',
      ),
    );
  });

  it('raw: a body over the limit, declared by Content-Length', async () => {
    await createContext('orph-raw-big');
    await setLimit('orph-raw-big', 10);
    await rejected('orph-raw-big', 413, () =>
      uploadRaw('orph-raw-big', 'x'.repeat(100), 'text/plain'),
    );
  });

  it('raw: a streamed body that runs over the limit', async () => {
    await createContext('orph-raw-stream');
    await setLimit('orph-raw-stream', 10);
    const bytes = new TextEncoder().encode('x'.repeat(100));
    await rejected('orph-raw-stream', 413, () =>
      uploadRaw(
        'orph-raw-stream',
        new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(bytes);
            c.close();
          },
        }),
        'text/plain',
      ),
    );
  });

  it('an unknown Context', async () => {
    await rejected('orph-missing', 404, () => uploadRaw('orph-missing', 'text', 'text/plain'));
  });

  it('the same bytes again keep one blob (deduplicated)', async () => {
    await createContext('orph-dedup');
    const first = await uploadRaw('orph-dedup', 'The same bytes twice.', 'text/plain');
    expect(first.status).toBe(202);
    expect(await blobCount('orph-dedup')).toBe(1);
    const again = await uploadMultipart('orph-dedup', file('The same bytes twice.'));
    expect(again.status).toBe(200);
    expect(await blobCount('orph-dedup')).toBe(1);
  });
});
