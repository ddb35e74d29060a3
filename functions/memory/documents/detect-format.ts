/** The document formats the processor understands. */
export type DocumentFormat = 'text' | 'markdown' | 'html' | 'pdf' | 'json' | 'csv';

const BY_MEDIA_TYPE: Record<string, DocumentFormat> = {
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/pdf': 'pdf',
  'application/json': 'json',
  'text/json': 'json',
  'text/csv': 'csv',
  'application/csv': 'csv',
};

const BY_EXTENSION: Record<string, DocumentFormat> = {
  txt: 'text',
  text: 'text',
  md: 'markdown',
  markdown: 'markdown',
  html: 'html',
  htm: 'html',
  pdf: 'pdf',
  json: 'json',
  csv: 'csv',
};

/** `text/markdown; charset=utf-8` -> `text/markdown`. */
export function mediaTypeOf(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * Picks the format from the declared media type, falling back to the file name's extension when
 * the client sent a generic type (browsers send `application/octet-stream` for unknown files).
 * Returns null for anything else, which the processor reports as a failed document.
 */
export function detectFormat(
  contentType: string | null | undefined,
  filename?: string | null,
): DocumentFormat | null {
  const media = mediaTypeOf(contentType);
  const fromMedia = BY_MEDIA_TYPE[media];
  if (fromMedia) return fromMedia;
  if (media !== '' && media !== 'application/octet-stream') return null;
  const ext = filename?.split('.').pop()?.toLowerCase();
  return (ext && BY_EXTENSION[ext]) || null;
}
