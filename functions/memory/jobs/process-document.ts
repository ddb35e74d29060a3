import { processDocument } from '../documents/process-document.ts';
import { createDeps } from '../operations/create-deps.ts';
import { defineJob } from './define-job.ts';
import { documentProcessSchema, type DocumentProcessJob } from './messages.ts';

/** `document_process`: extraction, chunking and embedding of one uploaded document. */
export async function runDocumentProcess(job: DocumentProcessJob, env: Env): Promise<void> {
  await processDocument(job.document_id, {
    store: env.CONTEXT_STORE.getByName(job.context_id),
    blobs: env.BLOBS,
    // The query path's own wiring, or vector search would find nothing (vectors of different
    // model ids are never compared). Jobs are an edge: they wire, documents/ only receives.
    embedder: createDeps(env).embedder,
  });
}

/** A document whose job was dead-lettered ends `failed` instead of staying mid-processing. */
async function failDeadDocument(job: DocumentProcessJob, env: Env, error: string): Promise<void> {
  await env.CONTEXT_STORE.getByName(job.context_id).failDocument(
    job.document_id,
    `Processing failed on every attempt: ${error}`,
  );
}

export const documentProcessJob = defineJob(
  'document_process',
  documentProcessSchema,
  runDocumentProcess,
  failDeadDocument,
);
