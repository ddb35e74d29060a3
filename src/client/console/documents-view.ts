/**
 * `/console/documents`: uploaded documents with their processing status and error, and a preview
 * of a document's chunks. Chunks are items of kind `chunk` whose `source_id` is the document, so
 * the preview pages `GET /facts?kind=chunk` and keeps that document's (the API has no chunk route).
 */
import { api, inContext } from './api.ts';
import { scopeList } from './fact-cells.ts';
import { byId, fill, h, when } from './dom.ts';
import { startView } from './shell.ts';
import { attempt, say } from './status.ts';
import type { DocumentInfo, Fact, FactPage } from './types.ts';

const PREVIEW = 5;
/** How many chunk pages the preview reads before it stops looking. */
const MAX_PAGES = 10;

async function chunksOf(contextId: string, documentId: string): Promise<Fact[]> {
  const found: Fact[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < MAX_PAGES && found.length < PREVIEW; i++) {
    const page = await api<FactPage>(inContext(contextId, '/facts'), {
      query: { kind: 'chunk', limit: 100, cursor },
    });
    found.push(
      ...page.facts.filter(
        (f) => f.source_id === documentId || f.source_id === `document:${documentId}`,
      ),
    );
    if (page.next_cursor === null) break;
    cursor = page.next_cursor;
  }
  return found.slice(0, PREVIEW);
}

function docRow(contextId: string, doc: DocumentInfo): HTMLElement {
  const preview = h('button', { type: 'button' }, 'Chunks');
  preview.setAttribute('aria-label', `Chunks of ${doc.filename ?? doc.id}`);
  preview.addEventListener('click', () => {
    void attempt(async () => {
      const chunks = await chunksOf(contextId, doc.id);
      const panel = byId('chunks', HTMLElement);
      fill(
        panel,
        h('h2', {}, `Chunks of ${doc.filename ?? doc.id}`),
        chunks.length === 0
          ? h('p', {}, 'No chunk this key may read.')
          : h(
              'ol',
              {},
              ...chunks.map((c) =>
                h('li', {}, h('p', {}, c.content.slice(0, 400)), scopeList(c.scopes)),
              ),
            ),
      );
      panel.hidden = false;
      say(`${chunks.length} chunk(s) shown.`);
    });
  });
  return h(
    'tr',
    {},
    h('th', { scope: 'row' }, doc.filename ?? doc.id),
    h('td', {}, doc.status),
    h('td', {}, doc.error ?? '—'),
    h(
      'td',
      {},
      `${doc.chunk_count ?? 0} chunks${doc.pages === null ? '' : ` · ${doc.pages} pages`} · ${doc.size_bytes} bytes`,
    ),
    h('td', {}, scopeList(doc.scopes)),
    h('td', {}, when(doc.created_at)),
    h('td', {}, preview),
  );
}

startView((_session, contextId) => {
  void attempt(async () => {
    const body = await api<{ documents: DocumentInfo[] }>(inContext(contextId, '/documents'), {
      query: { limit: 100 },
    });
    const rows = body.documents.map((d) => docRow(contextId, d));
    fill(
      byId('document-rows', HTMLTableSectionElement),
      ...(rows.length > 0
        ? rows
        : [h('tr', {}, h('td', { colspan: 7 }, 'No document this key may read.'))]),
    );
    say(`${body.documents.length} document(s).`);
  });
});
