import { describe, expect, it } from 'vitest';
import encryptedPdf from '../../../test/fixtures/documents/encrypted.pdf?inline';
import samplePdf from '../../../test/fixtures/documents/sample.pdf?inline';
import { chunkText } from './chunk-text.ts';
import { detectFormat } from './detect-format.ts';
import { ENCRYPTED_PDF_ERROR, WRONG_PASSWORD_PDF_ERROR } from './extract-pdf.ts';
import { extractText } from './extract-text.ts';

function dataUrlBytes(url: string): Uint8Array {
  const base64 = url.slice(url.indexOf(',') + 1);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('detectFormat', () => {
  it('reads the media type, ignoring parameters', () => {
    expect(detectFormat('text/markdown; charset=utf-8')).toBe('markdown');
    expect(detectFormat('application/pdf')).toBe('pdf');
  });
  it('falls back to the extension for a generic type only', () => {
    expect(detectFormat('application/octet-stream', 'notes.CSV')).toBe('csv');
    expect(detectFormat(null, 'a.json')).toBe('json');
    expect(detectFormat('image/png', 'a.txt')).toBeNull();
    expect(detectFormat('application/octet-stream', 'a.exe')).toBeNull();
  });
});

describe('extractText', () => {
  it('keeps plain text and markdown as they are', async () => {
    expect(await extractText('markdown', utf8('# Title\n\nBody'))).toEqual({
      ok: true,
      text: '# Title\n\nBody',
      pages: null,
    });
  });

  it('turns HTML into markdown', async () => {
    const out = await extractText(
      'html',
      utf8('<h1>Hello</h1><p>A <strong>bold</strong> claim.</p>'),
    );
    expect(out).toEqual({ ok: true, text: '# Hello\n\nA **bold** claim.\n', pages: null });
  });

  it('flattens JSON into path: value lines', async () => {
    const out = await extractText(
      'json',
      utf8('{"team":{"lead":"Ada","size":4},"tags":["x","y"]}'),
    );
    expect(out).toEqual({
      ok: true,
      text: 'team.lead: Ada\nteam.size: 4\ntags[0]: x\ntags[1]: y',
      pages: null,
    });
  });

  it('reports malformed JSON as a failure, not a crash', async () => {
    const out = await extractText('json', utf8('{"a":'));
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error).toMatch(/^JSON extraction failed: /);
  });

  it('turns CSV rows into header: value paragraphs, honouring quotes', async () => {
    const out = await extractText(
      'csv',
      utf8('name,note\r\nAda,"likes ""tea"", a lot"\nBob,plain\n'),
    );
    expect(out).toEqual({
      ok: true,
      text: 'name: Ada; note: likes "tea", a lot\n\nname: Bob; note: plain',
      pages: null,
    });
  });

  it('extracts each page of a PDF', async () => {
    const out = await extractText('pdf', dataUrlBytes(samplePdf));
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.pages).toBe(2);
    expect(out.text).toContain('heliotrope project');
    expect(out.text).toContain('forty milliseconds');
  });

  it('fails an encrypted PDF without its password with the documented error', async () => {
    expect(await extractText('pdf', dataUrlBytes(encryptedPdf))).toEqual({
      ok: false,
      error: ENCRYPTED_PDF_ERROR,
    });
    expect(ENCRYPTED_PDF_ERROR).toBe(
      'PDF extraction failed: file is encrypted and no password was provided.',
    );
  });

  it('opens an encrypted PDF with its password, and says so when the password is wrong', async () => {
    const opened = await extractText('pdf', dataUrlBytes(encryptedPdf), 'secret-user');
    expect(opened.ok && opened.text).toContain('heliotrope');
    expect(await extractText('pdf', dataUrlBytes(encryptedPdf), 'nope')).toEqual({
      ok: false,
      error: WRONG_PASSWORD_PDF_ERROR,
    });
  });
});

describe('chunkText', () => {
  it('packs paragraphs up to the limit and numbers chunks in order', () => {
    const chunks = chunkText('aaaa\n\nbbbb\n\ncccc', { maxChars: 10 });
    expect(chunks).toEqual([
      { position: 0, content: 'aaaa\n\nbbbb' },
      { position: 1, content: 'cccc' },
    ]);
  });
  it('splits an oversized paragraph at word boundaries', () => {
    const chunks = chunkText('one two three four five', { maxChars: 9 });
    expect(chunks.map((c) => c.content)).toEqual(['one two', 'three', 'four five']);
    expect(chunkText('   \n\n  ')).toEqual([]);
  });
});
