import { z } from 'zod';
import { MemoryError } from '../../errors.ts';
import { uploadDocument } from '../../operations/upload-document.ts';
import { memoryUri } from '../resources.ts';
import { contextIdField, defineTool } from '../tool.ts';
import { toolOutput } from '../tool-result.ts';
import { MAX_WAIT_SECONDS, watchDocument } from './document-status.ts';
import { documentId } from './inspect.ts';

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  let binary: string;
  try {
    binary = atob(text.replace(/\s+/g, ''));
  } catch {
    throw new MemoryError({ kind: 'validation-error', detail: 'base64: not valid base64' });
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const input = z
  .object({
    context_id: contextIdField,
    filename: z.string().min(1).max(255).describe('File name, e.g. notes.md or report.pdf.'),
    text: z.string().min(1).optional().describe('The document as text.'),
    base64: z
      .string()
      .min(1)
      .optional()
      .describe('The document as base64 (PDF and other binaries).'),
    content_type: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe(
        'Media type; defaults to text/plain for text and application/octet-stream for base64.',
      ),
    scopes: z.array(z.string().min(1)).max(32).optional(),
    password: z.string().min(1).optional().describe('Password of an encrypted PDF.'),
    wait_seconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_WAIT_SECONDS)
      .default(0)
      .describe('Wait up to this long for processing to end, reporting progress meanwhile.'),
  })
  .refine((v) => (v.text === undefined) !== (v.base64 === undefined), {
    message: 'give either text or base64, not both',
  });

/** Upload through the same operation as REST, as a raw body with its own content type. */
export const uploadTool = defineTool({
  name: 'upload',
  input,
  output: toolOutput({
    id: z.string(),
    status: z.string(),
    deduplicated: z.boolean(),
    uri: z.string(),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  async run(args, ctx) {
    const bytes =
      args.text !== undefined
        ? new TextEncoder().encode(args.text)
        : decodeBase64(args.base64 ?? '');
    const url = new URL('/mcp/upload', ctx.origin);
    url.searchParams.set('filename', args.filename);
    if (args.scopes) url.searchParams.set('scopes', JSON.stringify(args.scopes));
    const headers = new Headers({
      'content-type':
        args.content_type ?? (args.text !== undefined ? 'text/plain' : 'application/octet-stream'),
      'content-length': String(bytes.byteLength),
    });
    if (args.password) headers.set('x-document-password', args.password);
    const contextId = await ctx.enter(args.context_id);
    await ctx.report.progress(0, 5, `uploading ${args.filename} (${bytes.byteLength} bytes)`);
    const result = await uploadDocument(ctx.deps, ctx.auth, {
      contextId,
      request: new Request(url, { method: 'POST', headers, body: bytes }),
    });
    const id = documentId(result.document.id);
    // Waiting reports each processing step as progress (1-5) and ends with the final status.
    const doc =
      args.wait_seconds > 0
        ? await watchDocument(ctx, contextId, id, args.wait_seconds)
        : result.document;
    return {
      id,
      status: doc.status,
      deduplicated: result.deduplicated,
      uri: memoryUri(contextId, 'document', id),
    };
  },
});
