/**
 * JSON and CSV become plain lines of `path: value` text, so that full-text and vector search see
 * the values with the names that give them meaning.
 */

export function jsonToText(
  source: string,
): { ok: true; text: string } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return { ok: false, error: `JSON extraction failed: ${detail}` };
  }
  const lines: string[] = [];
  flatten(value, '', lines);
  return { ok: true, text: lines.join('\n') };
}

function flatten(value: unknown, path: string, out: string[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => flatten(item, `${path}[${i}]`, out));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value))
      flatten(item, path ? `${path}.${key}` : key, out);
  } else {
    out.push(path ? `${path}: ${String(value)}` : String(value));
  }
}

/** Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF). */
export function parseCsv(source: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (quoted) {
      if (c === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && source[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((cell) => cell.trim() !== ''));
}

/** One paragraph per data row: `header: value; header: value`. */
export function csvToText(source: string): string {
  const [header = [], ...rows] = parseCsv(source);
  return rows
    .map((row) =>
      row.map((cell, i) => `${header[i]?.trim() || `column ${i + 1}`}: ${cell.trim()}`).join('; '),
    )
    .join('\n\n');
}
