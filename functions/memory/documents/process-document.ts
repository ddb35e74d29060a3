import type { Embedder } from '../retrieval/embedder.ts';
import type { DocumentWork } from '../store/documents-table.ts';
import type { NewItem } from '../store/types.ts';
import { chunkText } from './chunk-text.ts';
import { detectFormat } from './detect-format.ts';
import { extractText } from './extract-text.ts';

/** The store operations processing needs, as ContextStore RPC provides them. */
export interface DocumentStorePort {
  documentWork(id: string): Promise<DocumentWork | null>;
  markDocumentStep(id: string, status: 'extracting' | 'chunking' | 'embedding'): Promise<boolean>;
  failDocument(id: string, error: string): Promise<boolean>;
  completeDocument(id: string, chunks: NewItem[], pages: number | null): Promise<boolean>;
}

export interface ProcessDeps {
  store: DocumentStorePort;
  blobs: R2Bucket;
  embedder: Embedder;
}

/** Texts per embedding call: bounded so a large document never builds one giant request. */
const EMBED_BATCH = 64;

/**
 * Runs one document through `extracting -> chunking -> embedding -> ready`, or to `failed` with
 * its error. Safe to run again at any point: a finished document is left alone, and an
 * interrupted one restarts from extraction and ends with one set of chunks (completeDocument
 * replaces whatever an earlier attempt wrote, in one transaction).
 */
export async function processDocument(
  id: string,
  deps: ProcessDeps,
): Promise<'ready' | 'failed' | 'skipped'> {
  const work = await deps.store.documentWork(id);
  if (!work || work.record.status === 'ready' || work.record.status === 'failed') return 'skipped';
  if (!(await deps.store.markDocumentStep(id, 'extracting'))) return 'skipped';

  const format = detectFormat(work.record.content_type, work.record.filename);
  if (!format) {
    await deps.store.failDocument(
      id,
      `Unsupported document type ${work.record.content_type}: upload text, markdown, HTML, PDF, JSON or CSV.`,
    );
    return 'failed';
  }
  const blob = await deps.blobs.get(work.blob_key);
  if (!blob) {
    await deps.store.failDocument(
      id,
      'The uploaded file is missing from storage; upload it again.',
    );
    return 'failed';
  }
  const extracted = await extractText(
    format,
    new Uint8Array(await blob.arrayBuffer()),
    work.password,
  );
  if (!extracted.ok) {
    await deps.store.failDocument(id, extracted.error);
    return 'failed';
  }

  await deps.store.markDocumentStep(id, 'chunking');
  const chunks = chunkText(extracted.text);

  await deps.store.markDocumentStep(id, 'embedding');
  const vectors: Float32Array[] = [];
  for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
    vectors.push(
      ...(await deps.embedder.embed(chunks.slice(i, i + EMBED_BATCH).map((c) => c.content))),
    );
  }
  const items: NewItem[] = chunks.map((chunk, i) => {
    const values = vectors[i];
    return {
      kind: 'chunk',
      content: chunk.content,
      scopes: work.record.scopes,
      metadata: { document_id: work.record.id, position: chunk.position },
      sessionId: null,
      sourceId: work.record.id,
      vector: values ? { modelId: deps.embedder.modelId, values } : null,
    };
  });
  return (await deps.store.completeDocument(id, items, extracted.pages)) ? 'ready' : 'skipped';
}
