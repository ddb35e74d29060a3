import { z } from 'zod';
import { getDocument } from '../../operations/documents.ts';
import type { DocumentRecord, DocumentStatus } from '../../store/documents-table.ts';
import { memoryUri } from '../resources.ts';
import { contextIdField, defineTool, READ_ONLY, type ToolContext } from '../tool.ts';
import { toolOutput } from '../tool-result.ts';
import { documentId } from './inspect.ts';

/** Processing steps in order; progress is reported as the step's position out of the last. */
const STEPS: readonly DocumentStatus[] = ['queued', 'extracting', 'chunking', 'embedding', 'ready'];
const POLL_MS = 500;
export const MAX_WAIT_SECONDS = 60;

function finished(doc: DocumentRecord): boolean {
  return doc.status === 'ready' || doc.status === 'failed';
}

function step(doc: DocumentRecord): number {
  return doc.status === 'failed' ? STEPS.length : STEPS.indexOf(doc.status) + 1;
}

/**
 * The document's state, after waiting up to `waitSeconds` for processing to end. While it waits
 * it reports each step as progress; when processing ends it notifies subscribers of the
 * document's resource URI (`notifications/resources/updated`) on this request's stream.
 */
export async function watchDocument(
  ctx: ToolContext,
  contextId: string,
  id: string,
  waitSeconds: number,
): Promise<DocumentRecord> {
  const deadline = Date.now() + waitSeconds * 1000;
  let doc = await getDocument(ctx.deps, ctx.auth, { contextId, id });
  let reported = -1;
  for (;;) {
    if (step(doc) !== reported) {
      reported = step(doc);
      await ctx.report.progress(reported, STEPS.length, `document ${doc.status}`);
    }
    if (finished(doc) || Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, POLL_MS));
    doc = await getDocument(ctx.deps, ctx.auth, { contextId, id });
  }
  if (finished(doc) && waitSeconds > 0) {
    await ctx.report.resourceUpdated(memoryUri(contextId, 'document', documentId(doc.id)));
    if (doc.status === 'failed') {
      await ctx.report.log('error', {
        message: `document ${documentId(doc.id)} failed`,
        error: doc.error,
      });
    }
  }
  return doc;
}

export const documentStatusTool = defineTool({
  name: 'document_status',
  input: z.object({
    context_id: contextIdField,
    id: z.string().min(1).max(200).describe('The document id (document:<id>).'),
    wait_seconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_WAIT_SECONDS)
      .default(0)
      .describe('Wait up to this long for processing to end, reporting progress meanwhile.'),
  }),
  output: toolOutput({
    id: z.string(),
    status: z.enum(['queued', 'extracting', 'chunking', 'embedding', 'ready', 'failed']),
    finished: z.boolean(),
    error: z.string().nullable(),
    pages: z.number().nullable(),
    chunk_count: z.number().nullable(),
    uri: z.string(),
  }),
  annotations: READ_ONLY,
  async run(args, ctx) {
    const contextId = await ctx.enter(args.context_id);
    const doc = await watchDocument(ctx, contextId, args.id, args.wait_seconds);
    const id = documentId(doc.id);
    return {
      id,
      status: doc.status,
      finished: finished(doc),
      error: doc.error,
      pages: doc.pages,
      chunk_count: doc.chunk_count,
      uri: memoryUri(contextId, 'document', id),
    };
  },
});
