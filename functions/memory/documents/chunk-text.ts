/** A piece of a document's text, indexed as one memory item of kind `chunk`. */
export interface TextChunk {
  position: number;
  content: string;
}

export interface ChunkOptions {
  /** Upper bound on a chunk's length in characters (a paragraph longer than this is split). */
  maxChars?: number;
}

const DEFAULT_MAX_CHARS = 1200;

/**
 * Packs paragraphs into chunks of at most `maxChars` characters, splitting an oversized paragraph
 * at sentence, then word boundaries. Deterministic: the same text always gives the same chunks,
 * which is what makes re-processing a document idempotent.
 */
export function chunkText(text: string, options: ChunkOptions = {}): TextChunk[] {
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  const pieces = text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+$/g, '').replace(/^\s*\n/g, ''))
    .filter((p) => p.trim() !== '')
    .flatMap((p) => splitLong(p, maxChars));
  const chunks: TextChunk[] = [];
  let current = '';
  for (const piece of pieces) {
    if (current !== '' && current.length + 2 + piece.length > maxChars) {
      chunks.push({ position: chunks.length, content: current });
      current = '';
    }
    current = current === '' ? piece : `${current}\n\n${piece}`;
  }
  if (current.trim() !== '') chunks.push({ position: chunks.length, content: current });
  return chunks;
}

function splitLong(paragraph: string, maxChars: number): string[] {
  if (paragraph.length <= maxChars) return [paragraph];
  const out: string[] = [];
  let current = '';
  const units = paragraph.split(/\s+/);
  for (const unit of units) {
    for (let start = 0; start < unit.length; start += maxChars) {
      const part = unit.slice(start, start + maxChars);
      if (current !== '' && current.length + 1 + part.length > maxChars) {
        out.push(current);
        current = '';
      }
      current = current === '' ? part : `${current} ${part}`;
    }
  }
  if (current !== '') out.push(current);
  return out;
}
