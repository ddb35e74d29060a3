import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';

// The "done when" of the documents issue against the real `wrangler dev`: the real local queue
// consumer processes the jobs. Upload a PDF, a markdown file and an encrypted PDF, poll them to
// ready, ready and failed, find the first two in a query, and see no Context behind the code's
// latest schema version in /migrations.

const base = inject('baseUrl');
const management = inject('bootstrapKey');
// wrangler dev keeps its state between runs of one server: names unique to this run.
const run = crypto.randomUUID().slice(0, 8);
const ctx = `docs-walk-${run}`;
const POLL_LIMIT_MS = 60_000;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const fixture = (name: string): Uint8Array<ArrayBuffer> =>
  new Uint8Array(readFileSync(new URL(`../fixtures/documents/${name}`, import.meta.url)));

interface DocumentBody {
  id: string;
  status: string;
  filename: string | null;
  error: string | null;
  pages: number | null;
  chunk_count: number | null;
  processing_started_at: string | null;
  processing_completed_at: string | null;
  deduplicated?: boolean;
}

interface QueryHit {
  id: string;
  kind: string;
  content: string;
  metadata: Record<string, unknown> | null;
}

function api(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${management}`);
  return fetch(`${base}/api/v1${path}`, { ...init, headers });
}

async function ok<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

async function upload(
  body: Uint8Array<ArrayBuffer> | string,
  type: string,
  filename: string,
): Promise<DocumentBody> {
  const res = await api(`/${ctx}/documents?scopes=*&filename=${encodeURIComponent(filename)}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body,
  });
  const accepted = await ok<DocumentBody>(res, 202);
  expect(accepted.status).toBe('queued');
  expect(accepted.id).toMatch(/^document:doc_[A-Za-z0-9]+$/);
  return accepted;
}

/** Polls a document until it is ready or failed; past the bound, fails with the last body seen. */
async function settle(id: string): Promise<DocumentBody> {
  const deadline = Date.now() + POLL_LIMIT_MS;
  let last = '(no answer yet)';
  while (Date.now() < deadline) {
    const res = await api(`/${ctx}/documents/${id}`);
    last = `${res.status} ${await res.text()}`;
    if (res.status === 200) {
      const doc = JSON.parse(last.slice(4)) as DocumentBody;
      if (doc.status === 'ready' || doc.status === 'failed') return doc;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`document ${id} did not settle within ${POLL_LIMIT_MS} ms; last: ${last}`);
}

async function query(text: string, mode: string): Promise<QueryHit[]> {
  const res = await api(`/${ctx}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: text, mode, k: 10 }),
  });
  return (await ok<{ results: QueryHit[] }>(res, 200)).results;
}

describe('documents walkthrough (wrangler dev, real local queue)', { timeout: 200_000 }, () => {
  it('uploads a PDF, a markdown file and an encrypted PDF; two become ready and searchable, one fails', async () => {
    await ok(
      await api('/contexts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: ctx }),
      }),
      201,
    );

    const markdown = [
      '# Field notes',
      '',
      `The quokka colony on the eastern ridge (${run}) doubled after the winter rains.`,
      '',
      'Rangers count the burrows every spring.',
    ].join('\n');
    const pdf = await upload(fixture('sample.pdf'), 'application/pdf', 'report.pdf');
    const md = await upload(markdown, 'text/markdown', 'notes.md');
    const locked = await upload(fixture('encrypted.pdf'), 'application/pdf', 'locked.pdf');

    // The same bytes again answer 200 with the existing document.
    const again = await ok<DocumentBody>(
      await api(`/${ctx}/documents?scopes=*`, {
        method: 'POST',
        headers: { 'content-type': 'text/markdown' },
        body: markdown,
      }),
      200,
    );
    expect(again).toMatchObject({ id: md.id, deduplicated: true });

    const [pdfDone, mdDone, lockedDone] = await Promise.all([
      settle(pdf.id),
      settle(md.id),
      settle(locked.id),
    ]);

    expect(pdfDone).toMatchObject({
      status: 'ready',
      pages: 2,
      filename: 'report.pdf',
      error: null,
    });
    expect(pdfDone.chunk_count).toBeGreaterThan(0);
    expect(mdDone).toMatchObject({ status: 'ready', filename: 'notes.md', error: null });
    expect(mdDone.chunk_count).toBeGreaterThan(0);
    for (const done of [pdfDone, mdDone]) {
      expect(done.processing_started_at).toMatch(ISO_UTC);
      expect(done.processing_completed_at).toMatch(ISO_UTC);
    }

    expect(lockedDone.status).toBe('failed');
    expect(lockedDone.error).toBe(
      'PDF extraction failed: file is encrypted and no password was provided.',
    );
    expect(lockedDone.processing_started_at).toMatch(ISO_UTC);
    expect(lockedDone.processing_completed_at).toMatch(ISO_UTC);
    expect(Date.parse(lockedDone.processing_completed_at ?? '')).toBeGreaterThanOrEqual(
      Date.parse(lockedDone.processing_started_at ?? ''),
    );

    // Both ready documents are found as chunks, carrying their document id and position.
    const bareId = (id: string) => id.replace(/^document:/, '');
    const cases: [DocumentBody, string, string][] = [
      [pdfDone, 'heliotrope project release', 'heliotrope'],
      [mdDone, `quokka colony eastern ridge ${run}`, 'quokka colony'],
    ];
    for (const [doc, text, expected] of cases) {
      for (const mode of ['hybrid', 'bm25', 'vector']) {
        const chunk = (await query(text, mode)).find(
          (h) =>
            h.kind === 'chunk' && bareId(String(h.metadata?.document_id ?? '')) === bareId(doc.id),
        );
        expect(chunk?.content, `${doc.filename} in ${mode}`).toContain(expected);
        expect(typeof chunk?.metadata?.position, `${doc.filename} in ${mode}`).toBe('number');
      }
    }
    // Nothing of the failed document is searchable.
    const lockedHits = (await query('heliotrope project release', 'bm25')).filter(
      (h) => bareId(String(h.metadata?.document_id ?? '')) === bareId(locked.id),
    );
    expect(lockedHits).toEqual([]);
  });

  it('shows every Context at the latest schema version in /migrations', async () => {
    const report = await ok<{
      latest_version: number;
      histogram: Record<string, number>;
      behind: { context_id: string }[];
    }>(await api('/migrations'), 200);
    expect(report.latest_version).toBeGreaterThanOrEqual(3);
    expect(report.behind).toEqual([]);
    const versions = Object.keys(report.histogram).map(Number);
    expect(versions.length).toBeGreaterThan(0);
    expect(versions.every((v) => v === report.latest_version)).toBe(true);

    // A new Context starts at the latest version, so it never shows as behind.
    const fresh = await ok<{ id: string; schema_version: number }>(
      await api('/contexts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: `${ctx}-fresh` }),
      }),
      201,
    );
    expect(fresh.schema_version).toBe(report.latest_version);
    const after = await ok<{ behind: unknown[]; histogram: Record<string, number> }>(
      await api('/migrations'),
      200,
    );
    expect(after.behind).toEqual([]);
    expect(after.histogram[String(report.latest_version)]).toBe(
      (report.histogram[String(report.latest_version)] ?? 0) + 1,
    );
  });
});
