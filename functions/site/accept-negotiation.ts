// `Accept` negotiation between a page's HTML and its markdown twin (RFC 9110 section 12.5.1).
// Markdown is chosen only when the client prefers `text/markdown` strictly over `text/html`:
// a tie (`*/*`, `text/*`, equal q-values) keeps HTML, because browsers send wildcards and must
// keep getting pages.

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

/** A q-value is 0..1 with at most three decimals; anything else falls back to 1 (RFC 9110 default). */
function parseQuality(raw: string): number {
  const value = Number(raw.trim());
  if (!Number.isFinite(value) || raw.trim() === '') return 1;
  return Math.min(1, Math.max(0, value));
}

function parseRange(part: string): MediaRange | null {
  const [mediaType = '', ...params] = part.split(';');
  const [type, subtype] = mediaType.trim().toLowerCase().split('/');
  if (!type || !subtype) return null;
  let q = 1;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    if (param.slice(0, eq).trim().toLowerCase() === 'q') q = parseQuality(param.slice(eq + 1));
  }
  return { type: type.trim(), subtype: subtype.trim(), q };
}

export function parseAccept(header: string | null | undefined): MediaRange[] {
  if (!header) return [];
  return header
    .split(',')
    .map(parseRange)
    .filter((range): range is MediaRange => range !== null);
}

// Specificity of a range for a media type: 3 exact, 2 `type/*`, 1 `*/*`, 0 no match.
function specificity(range: MediaRange, type: string, subtype: string): number {
  if (range.type === type && range.subtype === subtype) return 3;
  if (range.type === type && range.subtype === '*') return 2;
  if (range.type === '*' && range.subtype === '*') return 1;
  return 0;
}

/** The quality the client gives a media type: the q of the most specific matching range. */
export function qualityOf(ranges: MediaRange[], mediaType: string): number {
  const [type = '', subtype = ''] = mediaType.split('/');
  let best = 0;
  let q = 0;
  for (const range of ranges) {
    const s = specificity(range, type, subtype);
    // Equal specificity: the highest q wins, so a duplicate range never lowers a preference.
    if (s > best || (s === best && s > 0 && range.q > q)) {
      best = s;
      q = range.q;
    }
  }
  return best === 0 ? 0 : q;
}

/** True when the request should get the markdown twin instead of the HTML page. */
export function prefersMarkdown(accept: string | null | undefined): boolean {
  const ranges = parseAccept(accept);
  const markdown = qualityOf(ranges, 'text/markdown');
  return markdown > 0 && markdown > qualityOf(ranges, 'text/html');
}
