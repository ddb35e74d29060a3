import { htmlToMarkdown } from '../../../src/lib/html-to-markdown.ts';
import type { DocumentFormat } from './detect-format.ts';
import { extractPdf } from './extract-pdf.ts';
import { csvToText, jsonToText } from './extract-structured.ts';

export type Extraction =
  { ok: true; text: string; pages: number | null } | { ok: false; error: string };

/** Turns an uploaded file into the text that is chunked and indexed. */
export async function extractText(
  format: DocumentFormat,
  bytes: Uint8Array,
  password?: string | null,
): Promise<Extraction> {
  if (format === 'pdf') {
    const pdf = await extractPdf(bytes, password);
    return pdf.ok ? { ok: true, text: pdf.text, pages: pdf.pages } : pdf;
  }
  const source = new TextDecoder('utf-8').decode(bytes);
  switch (format) {
    case 'text':
    case 'markdown':
      return { ok: true, text: source, pages: null };
    case 'html':
      // The same unified pipeline that makes the site's markdown twins.
      return { ok: true, text: htmlToMarkdown(source), pages: null };
    case 'json': {
      const json = jsonToText(source);
      return json.ok ? { ok: true, text: json.text, pages: null } : json;
    }
    case 'csv':
      return { ok: true, text: csvToText(source), pages: null };
  }
}
