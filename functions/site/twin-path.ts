/** Where a page's markdown twin lives, and which twin URLs are acceptable. */

/** A twin path segment (spec section 4): unreserved characters and `@`. */
export const SEGMENT_PATTERN = /^[A-Za-z0-9._~@-]+$/;
/** Four segments is the deepest page (spec section 8). */
export const MAX_TWIN_SEGMENTS = 4;

/** A percent-encoded slash anywhere in the raw path means the client tried to hide a separator. */
export function hasEncodedSlash(rawPath: string): boolean {
  return /%2f/i.test(rawPath);
}

/** `/` -> `/index.md`, `/pricing` -> `/pricing.md`. */
export function twinOf(pagePath: string): string {
  return pagePath === '/' ? '/index.md' : `${pagePath.replace(/\/+$/, '')}.md`;
}

/** `/index.md` -> `/`, `/pricing.md` -> `/pricing`. */
export function pageOf(twinPath: string): string {
  const page = twinPath.replace(/\.md$/, '');
  return page === '/index' ? '/' : page;
}

/**
 * True when the raw (still percent-encoded) path is a well-formed twin URL: ends in `.md`, has one
 * to four non-empty segments, each made of the allowed characters (so any `%` escape fails).
 */
export function isValidTwinPath(rawPath: string): boolean {
  if (!rawPath.startsWith('/') || !rawPath.endsWith('.md')) return false;
  const segments = rawPath.slice(1).split('/');
  if (segments.length > MAX_TWIN_SEGMENTS) return false;
  return segments.every((segment) => SEGMENT_PATTERN.test(segment));
}
