/**
 * Bulk statements bind a whole batch as ONE JSON parameter read back with `json_each`: one
 * statement (one prepared plan, one call into SQLite) per table per batch instead of one per row,
 * and never near the 100-bound-parameter limit of Durable Object SQL. A bound string may hold at
 * most 2 MB, so rows are split into chunks whose JSON stays well below that (a character is at
 * most 3 bytes of UTF-8; 256 Ki characters is at most 768 KiB).
 */
export const MAX_JSON_CHARS = 256 * 1024;

/** Rows in order, cut into JSON arrays of at most `maxChars` characters (a lone larger row alone). */
export function jsonBatches(rows: readonly unknown[], maxChars = MAX_JSON_CHARS): string[] {
  const out: string[] = [];
  let parts: string[] = [];
  let size = 2;
  for (const row of rows) {
    const text = JSON.stringify(row);
    if (parts.length > 0 && size + text.length + 1 > maxChars) {
      out.push(`[${parts.join(',')}]`);
      parts = [];
      size = 2;
    }
    parts.push(text);
    size += text.length + 1;
  }
  if (parts.length > 0) out.push(`[${parts.join(',')}]`);
  return out;
}
