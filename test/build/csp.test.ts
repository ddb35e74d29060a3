import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { INLINE_SCRIPT_HASHES, siteCsp } from '../../functions/site/security-headers.ts';
import { distFiles, read } from './dist.ts';

// The site's CSP allows scripts from this origin and the listed hashes only, no inline event
// handlers, and styles from files (plus style attributes): every built page must live with that.

const pages = distFiles().filter((f) => f.endsWith('.html'));

function inlineScripts(html: string): string[] {
  const found: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = m[1] ?? '';
    const body = m[2] ?? '';
    // JSON-LD and other data blocks are not executed, so CSP does not apply to them.
    const type = /\btype="([^"]*)"/i.exec(attrs)?.[1] ?? '';
    if (/\bsrc=/i.test(attrs) || /json/i.test(type)) continue;
    found.push(body);
  }
  return found;
}

describe('built pages pass the site CSP', () => {
  it('has pages to check', () => {
    expect(pages.length).toBeGreaterThan(10);
  });

  it('every inline script is allowed by its hash (add a missing one to INLINE_SCRIPT_HASHES)', () => {
    const missing: string[] = [];
    for (const page of pages) {
      for (const body of inlineScripts(read(page))) {
        const hash = `sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}`;
        if (!INLINE_SCRIPT_HASHES.includes(hash)) missing.push(`${page}: ${hash}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('no page has an inline event handler or a javascript: URL (no hash can allow them)', () => {
    const offenders = pages.filter((page) =>
      /<[^>]+\son[a-z]+\s*=|(?:href|src|action)\s*=\s*"\s*javascript:/i.test(read(page)),
    );
    expect(offenders).toEqual([]);
  });

  it('no page has an inline <style> element (style-src is self only)', () => {
    expect(pages.filter((page) => /<style\b/i.test(read(page)))).toEqual([]);
  });

  it('every script, stylesheet and image a page loads is from this origin', () => {
    const foreign = new Set<string>();
    for (const page of pages) {
      for (const m of read(page).matchAll(/<(?:script|img|iframe)\b[^>]*\bsrc="([^"]+)"/gi)) {
        const src = m[1] ?? '';
        if (/^(https?:)?\/\//i.test(src)) foreign.add(`${page}: ${src}`);
      }
      for (const m of read(page).matchAll(/<link\b[^>]*rel="stylesheet"[^>]*>/gi)) {
        if (/href="(https?:)?\/\//i.test(m[0])) foreign.add(`${page}: ${m[0]}`);
      }
    }
    expect([...foreign]).toEqual([]);
  });

  it('the policy itself forbids inline script, plugins and framing', () => {
    const csp = siteCsp();
    expect(csp).toMatch(/script-src 'self'(;|$| 'sha256-)/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
  });
});
