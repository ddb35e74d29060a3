import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import encryptedPdf from '../../fixtures/documents/encrypted.pdf?inline';
import samplePdf from '../../fixtures/documents/sample.pdf?inline';
import { api, createContext } from '../jobs/helpers.ts';
import {
  getDocument,
  ISO_UTC,
  query,
  settle,
  uploadMultipart,
  uploadRaw,
  type DocumentBody,
} from './documents-helpers.ts';

function fixture(dataUrl: string): Uint8Array<ArrayBuffer> {
  const binary = atob(dataUrl.slice(dataUrl.indexOf(',') + 1));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const MARKDOWN = `# Field notes

The quokka colony on the northern ridge grew to forty animals this spring.

## Weather

Rain arrived late, which delayed the survey by two weeks.
`;

// Generous per-test time: each upload waits for the real queue consumer's batch window.
describe('document upload and processing', { timeout: 30_000 }, () => {
  it('processes a markdown upload to ready and finds its chunks in every query mode', async () => {
    await createContext('doc-md');
    const res = await uploadMultipart(
      'doc-md',
      new File([MARKDOWN], 'notes.md', { type: 'text/markdown' }),
      {
        scopes: '["*"]',
      },
    );
    expect(res.status).toBe(202);
    const accepted = (await res.json()) as DocumentBody;
    expect(accepted.id).toMatch(/^document:doc_[a-z0-9]+$/);
    expect(accepted).toMatchObject({ status: 'queued', deduplicated: false, filename: 'notes.md' });

    const done = await settle('doc-md', accepted.id);
    expect(done.status).toBe('ready');
    expect(done.error).toBeNull();
    expect(done.chunk_count).toBeGreaterThan(0);
    expect(done.processing_started_at).toMatch(ISO_UTC);
    expect(done.processing_completed_at).toMatch(ISO_UTC);

    for (const mode of ['bm25', 'vector', 'hybrid', 'hybrid_graph']) {
      const hits = await query('doc-md', 'quokka colony northern ridge', mode);
      const chunk = hits.find((h) => h.kind === 'chunk');
      expect(chunk?.content, mode).toContain('quokka colony');
      // A hit names its document in the public id form, ready to poll.
      expect(chunk?.metadata, mode).toMatchObject({
        document_id: accepted.id,
        position: expect.any(Number),
      });
    }
  });

  it('answers the same bytes with the existing document, deduplicated, and keeps one blob', async () => {
    await createContext('doc-dedup');
    const first = await uploadRaw('doc-dedup', MARKDOWN, 'text/markdown', '?scopes=*');
    expect(first.status).toBe(202);
    const original = (await first.json()) as DocumentBody;
    const second = await uploadRaw('doc-dedup', MARKDOWN, 'text/markdown', '?scopes=*');
    expect(second.status).toBe(200);
    const again = (await second.json()) as DocumentBody;
    expect(again).toMatchObject({ id: original.id, deduplicated: true });
    const listed = await api('/api/v1/doc-dedup/documents');
    const page = (await listed.json()) as { documents: DocumentBody[] };
    expect(page.documents.map((d) => d.id)).toEqual([original.id]);
    const blobs = await env.BLOBS.list({ prefix: 'documents/doc-dedup/' });
    expect(blobs.objects).toHaveLength(1);
  });

  it('reads a document by `document:<id>` and by `<id>`, and 404s an unknown one', async () => {
    await createContext('doc-read');
    const res = await uploadRaw('doc-read', 'A note to read back.', 'text/plain', '?scopes=*');
    const { id } = (await res.json()) as DocumentBody;
    expect((await getDocument('doc-read', id)).status).toBe(200);
    expect((await getDocument('doc-read', id.replace('document:', ''))).status).toBe(200);
    const missing = await getDocument('doc-read', 'document:doc_nothinghere');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/problem+json');
  });

  it('extracts a PDF (raw body) page by page', async () => {
    await createContext('doc-pdf');
    const res = await uploadRaw(
      'doc-pdf',
      fixture(samplePdf),
      'application/pdf',
      '?filename=report.pdf&scopes=*',
    );
    expect(res.status).toBe(202);
    const done = await settle('doc-pdf', ((await res.json()) as DocumentBody).id);
    expect(done).toMatchObject({ status: 'ready', pages: 2, filename: 'report.pdf' });
    const hits = await query('doc-pdf', 'heliotrope project release', 'hybrid');
    expect(hits.find((h) => h.kind === 'chunk')?.content).toContain('heliotrope');
  });

  it('fails an encrypted PDF without its password, with no HTTP error', async () => {
    await createContext('doc-pdf-locked');
    const res = await uploadRaw(
      'doc-pdf-locked',
      fixture(encryptedPdf),
      'application/pdf',
      '?scopes=*',
    );
    expect(res.status).toBe(202);
    const done = await settle('doc-pdf-locked', ((await res.json()) as DocumentBody).id);
    expect(done.status).toBe('failed');
    expect(done.error).toBe(
      'PDF extraction failed: file is encrypted and no password was provided.',
    );
    expect(done.processing_started_at).toMatch(ISO_UTC);
    expect(done.processing_completed_at).toMatch(ISO_UTC);
    expect(done.chunk_count).toBe(0);
  });

  it('opens an encrypted PDF given its password (multipart field)', async () => {
    await createContext('doc-pdf-pw');
    const file = new File([fixture(encryptedPdf)], 'locked.pdf', { type: 'application/pdf' });
    const res = await uploadMultipart('doc-pdf-pw', file, { password: 'secret-user', scopes: '*' });
    expect(res.status).toBe(202);
    const done = await settle('doc-pdf-pw', ((await res.json()) as DocumentBody).id);
    expect(done).toMatchObject({ status: 'ready', pages: 2 });
  });

  it('handles HTML, JSON, CSV and plain text, and fails an unknown type clearly', async () => {
    await createContext('doc-formats');
    const cases: [string, string, string][] = [
      [
        '<h1>Menu</h1><p>The <em>saffron risotto</em> is served on Fridays.</p>',
        'text/html',
        'saffron risotto',
      ],
      [
        '{"pump":{"model":"Aquaflow 9","pressure_bar":3}}',
        'application/json',
        'pump.model: Aquaflow 9',
      ],
      ['city,river\nLyon,Rhone\nBasel,Rhine\n', 'text/csv', 'city: Basel; river: Rhine'],
      ['The lighthouse keeper logs every passing trawler.', 'text/plain', 'lighthouse keeper'],
    ];
    // Upload all, then poll all: the queue consumer works through them as one batch.
    const ids: string[] = [];
    for (const [body, type] of cases) {
      const res = await uploadRaw('doc-formats', body, type, '?scopes=*');
      expect(res.status, type).toBe(202);
      ids.push(((await res.json()) as DocumentBody).id);
    }
    const settled = await Promise.all(ids.map((id) => settle('doc-formats', id)));
    for (const [i, [, type, expected]] of cases.entries()) {
      expect(settled[i]?.status, type).toBe('ready');
      const hits = await query('doc-formats', expected, 'bm25');
      expect(hits.map((h) => h.content).join('\n'), type).toContain(expected);
    }
    const png = await uploadRaw(
      'doc-formats',
      new Uint8Array([137, 80, 78, 71]),
      'image/png',
      '?scopes=*',
    );
    expect(png.status).toBe(202);
    const failed = await settle('doc-formats', ((await png.json()) as DocumentBody).id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^Unsupported document type image\/png/);
  });

  it('lists with pagination and deletes a document with its chunks and blob', async () => {
    await createContext('doc-list');
    const uploads: [string, string][] = [
      ['<p>The <em>saffron risotto</em> is served on Fridays.</p>', 'text/html'],
      ['First plain note.', 'text/plain'],
      ['Second plain note.', 'text/plain'],
    ];
    const ids: string[] = [];
    for (const [body, type] of uploads) {
      ids.push(
        ((await (await uploadRaw('doc-list', body, type, '?scopes=*')).json()) as DocumentBody).id,
      );
    }
    await Promise.all(ids.map((id) => settle('doc-list', id)));
    const first = (await (await api('/api/v1/doc-list/documents?limit=2')).json()) as {
      documents: DocumentBody[];
      next_cursor: string | null;
    };
    expect(first.documents).toHaveLength(2);
    expect(first.next_cursor).not.toBeNull();
    const second = (await (
      await api(`/api/v1/doc-list/documents?limit=10&cursor=${first.next_cursor ?? ''}`)
    ).json()) as { documents: DocumentBody[]; next_cursor: string | null };
    expect(second.documents).toHaveLength(1);
    expect(second.next_cursor).toBeNull();
    expect([...first.documents, ...second.documents].map((d) => d.id).sort()).toEqual(
      [...ids].sort(),
    );
    expect((await api('/api/v1/doc-list/documents?limit=0')).status).toBe(400);

    const html = [...first.documents, ...second.documents].find(
      (d) => d.content_type === 'text/html',
    );
    if (!html) throw new Error('expected the HTML document');
    expect(
      (await query('doc-list', 'saffron risotto', 'bm25')).some((h) => h.kind === 'chunk'),
    ).toBe(true);
    const before = (await env.BLOBS.list({ prefix: 'documents/doc-list/' })).objects.length;
    expect((await api(`/api/v1/doc-list/documents/${html.id}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    expect((await getDocument('doc-list', html.id)).status).toBe(404);
    expect(
      (await query('doc-list', 'saffron risotto', 'bm25')).some((h) =>
        h.content.includes('saffron'),
      ),
    ).toBe(false);
    expect((await env.BLOBS.list({ prefix: 'documents/doc-list/' })).objects.length).toBe(
      before - 1,
    );
  });
});
