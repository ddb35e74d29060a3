/**
 * Reads the documents' file references out of an export stream as it passes by, so a scheduled
 * backup copies (and records in its manifest) exactly the files its own export references,
 * rather than whatever R2 holds a moment later. Only `documents` rows are parsed.
 */

const DOCUMENT_ROW = '"table":"documents"';
const SHA256 = /^[0-9a-f]{64}$/;

/** sha256 -> the live blob key of a document that references it. */
export type BlobRefs = Map<string, string>;

function collect(line: string, refs: BlobRefs): void {
  if (!line.includes(DOCUMENT_ROW)) return;
  const parsed = JSON.parse(line) as { table?: unknown; row?: Record<string, unknown> };
  const sha = parsed.row?.sha256;
  const key = parsed.row?.blob_key;
  if (parsed.table !== 'documents' || typeof sha !== 'string' || !SHA256.test(sha)) return;
  if (typeof key === 'string' && !refs.has(sha)) refs.set(sha, key);
}

/** A pass-through stream that fills `refs` with every document file the export references. */
export function collectBlobRefs(refs: BlobRefs): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let carry = '';
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      controller.enqueue(chunk);
      const text = carry + decoder.decode(chunk, { stream: true });
      const lines = text.split('\n');
      // The last piece may be a line cut between two chunks: kept for the next one.
      carry = lines.pop() ?? '';
      for (const line of lines) collect(line, refs);
    },
    flush() {
      collect(carry + decoder.decode(), refs);
    },
  });
}
