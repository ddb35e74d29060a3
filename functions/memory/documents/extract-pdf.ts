export const ENCRYPTED_PDF_ERROR =
  'PDF extraction failed: file is encrypted and no password was provided.';
export const WRONG_PASSWORD_PDF_ERROR =
  'PDF extraction failed: the password provided does not open this file.';

export type PdfResult = { ok: true; text: string; pages: number } | { ok: false; error: string };

// pdf.js reports password problems as a PasswordException whose `code` says which:
// 1 = a password is needed, 2 = the password given is wrong. Matched on name and code, not text.
const NEED_PASSWORD = 1;
const INCORRECT_PASSWORD = 2;

function passwordCode(err: unknown): number | null {
  if (typeof err !== 'object' || err === null) return null;
  const { name, code } = err as { name?: unknown; code?: unknown };
  return name === 'PasswordException' && typeof code === 'number' ? code : null;
}

/** Extracts the text of every page, one page per paragraph block. */
export async function extractPdf(bytes: Uint8Array, password?: string | null): Promise<PdfResult> {
  try {
    // Imported here, not at the top: the bundle then evaluates pdf.js (1.6 MB of code) only in an
    // isolate that extracts a PDF, not at every start-up of the Worker (docs/self-hosting.md).
    const { extractText, getDocumentProxy } = await import('unpdf');
    // pdf.js takes ownership of (and detaches) the buffer it is given: hand it a copy.
    const pdf = await getDocumentProxy(bytes.slice(), password ? { password } : {});
    const { totalPages, text } = await extractText(pdf, { mergePages: false });
    return { ok: true, text: text.map((page) => page.trim()).join('\n\n'), pages: totalPages };
  } catch (err) {
    const code = passwordCode(err);
    if (code === NEED_PASSWORD && !password) return { ok: false, error: ENCRYPTED_PDF_ERROR };
    if (code === NEED_PASSWORD || code === INCORRECT_PASSWORD) {
      return { ok: false, error: password ? WRONG_PASSWORD_PDF_ERROR : ENCRYPTED_PDF_ERROR };
    }
    const detail = err instanceof Error ? err.message : String(err);
    return { ok: false, error: `PDF extraction failed: ${detail}` };
  }
}
