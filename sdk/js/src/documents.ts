import { MemoryError } from './errors.ts';
import type { UploadOptions, WaitOptions } from './options.ts';
import type { DocumentState } from './types.ts';

const FINAL_DOCUMENT_STATES = new Set(['ready', 'failed']);

/** The multipart body of an upload: the file as `file`, plus `scopes` and `password`. */
export function uploadForm(
  data: Blob | ArrayBuffer | Uint8Array<ArrayBuffer> | string,
  options: UploadOptions,
): FormData {
  const type =
    options.contentType ?? (typeof data === 'string' ? 'text/plain' : 'application/octet-stream');
  const blob = data instanceof Blob ? data : new Blob([data], { type });
  const form = new FormData();
  form.set('file', blob, options.filename ?? 'document');
  if (options.scopes) form.set('scopes', JSON.stringify(options.scopes));
  if (options.password) form.set('password', options.password);
  return form;
}

/** Polls until the document is `ready` or `failed` (a failure is a state, not an error). */
export async function pollDocument(
  get: () => Promise<DocumentState>,
  id: string,
  options: WaitOptions,
  sleep: (ms: number) => Promise<void>,
): Promise<DocumentState> {
  const interval = options.intervalMs ?? 500;
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    const doc = await get();
    if (FINAL_DOCUMENT_STATES.has(doc.status)) return doc;
    if (Date.now() >= deadline) {
      // Not a server or network failure: the document is still being processed.
      throw new MemoryError(`document ${id} still ${doc.status} after waiting`, undefined, {
        detail: `last status: ${doc.status}`,
      });
    }
    await sleep(interval);
  }
}
