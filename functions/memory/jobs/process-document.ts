import { processDocument } from '../documents/process-document.ts';
import { documentEmbedder } from '../documents/document-embedder.ts';
import { defineJob } from './define-job.ts';
import { documentProcessSchema, type DocumentProcessJob } from './messages.ts';

/** `document_process`: extraction, chunking and embedding of one uploaded document. */
export async function runDocumentProcess(job: DocumentProcessJob, env: Env): Promise<void> {
  await processDocument(job.document_id, {
    store: env.CONTEXT_STORE.getByName(job.context_id),
    blobs: env.BLOBS,
    embedder: documentEmbedder(env),
  });
}

export const documentProcessJob = defineJob(
  'document_process',
  documentProcessSchema,
  runDocumentProcess,
);
