import { describe, expect, it } from 'vitest';
import { prefersMarkdown, qualityOf, parseAccept } from './accept-negotiation.ts';

// [Accept header, markdown expected?, why]
const CASES: [string | null, boolean, string][] = [
  [null, false, 'no Accept header means HTML'],
  ['', false, 'an empty Accept header means HTML'],
  ['text/markdown', true, 'markdown alone'],
  ['text/html', false, 'HTML alone'],
  ['*/*', false, '*/* alone is HTML (a tie)'],
  ['text/*', false, 'text/* counts for both: a tie'],
  ['text/markdown, text/html', false, 'equal q: ties go to HTML'],
  ['text/html, text/markdown', false, 'order does not matter on a tie'],
  ['text/markdown, text/html;q=0.9', true, 'markdown preferred by q'],
  ['text/markdown;q=0.9, text/html', false, 'HTML preferred by q'],
  ['text/markdown, */*;q=0.1', true, 'markdown over a low wildcard'],
  ['text/markdown;q=0.5, */*;q=0.5', false, 'markdown tied with the wildcard'],
  ['text/markdown;q=0, */*', false, 'q=0 excludes markdown'],
  ['text/markdown;q=0', false, 'q=0 alone excludes markdown'],
  ['text/html;q=0, */*', true, 'HTML excluded, wildcard gives markdown'],
  ['text/html;q=0, text/*;q=0.2', true, 'HTML excluded, text/* gives markdown'],
  ['TEXT/MARKDOWN', true, 'media types are case-insensitive'],
  ['  text/markdown ;  q=0.8 ,  text/html ; q=0.7 ', true, 'whitespace is tolerated'],
  ['text/markdown;charset=utf-8, text/html;q=0.5', true, 'parameters are tolerated'],
  ['text/markdown;variant=GFM;q=0.9, text/html;level=1;q=0.8', true, 'q after other parameters'],
  ['text/markdown;Q=0.9, text/html;q=0.8', true, 'the q parameter name is case-insensitive'],
  ['application/json', false, 'neither acceptable: HTML by default'],
  ['text/plain, text/markdown;q=0.5', true, 'markdown acceptable, HTML not at all'],
  ['text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.8', false, 'a browser'],
  ['text/markdown, text/html;q=0.99', true, 'a small preference is still a preference'],
  ['text/*;q=0.5, text/markdown;q=0.4', false, 'the specific range beats text/* for markdown'],
  ['text/*, text/html;q=0.1', true, 'text/* gives markdown 1 while HTML is lowered'],
  ['garbage, text/markdown', true, 'a malformed range is skipped'],
  ['text/markdown;q=abc, text/html;q=0.5', true, 'an unparsable q falls back to 1'],
  ['text/markdown, text/markdown;q=0.1, text/html;q=0.5', true, 'duplicates keep the best q'],
];

describe('Accept negotiation (RFC 9110 q-values)', () => {
  it.each(CASES)('%j -> markdown %s (%s)', (header, expected) => {
    expect(prefersMarkdown(header)).toBe(expected);
  });

  it('gives each media type the q of its most specific range', () => {
    const ranges = parseAccept('*/*;q=0.1, text/*;q=0.5, text/markdown;q=0.9');
    expect(qualityOf(ranges, 'text/markdown')).toBe(0.9);
    expect(qualityOf(ranges, 'text/html')).toBe(0.5);
    expect(qualityOf(ranges, 'image/png')).toBe(0.1);
  });
});
