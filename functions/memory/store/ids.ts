/** Random, URL-safe, sortable-enough ids with a kind prefix (`fact_...`, `session_...`). */
export function newId(prefix: string): string {
  return newIds(prefix, 1)[0] ?? '';
}

/** `count` ids at once: one call for random bytes per batch rather than one per id. */
export function newIds(prefix: string, count: number): string[] {
  const bytes = crypto.getRandomValues(new Uint8Array(12 * count));
  const time = Date.now().toString(36).padStart(9, '0');
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    let rand = '';
    for (let j = 12 * i; j < 12 * (i + 1); j++) rand += ((bytes[j] ?? 0) % 36).toString(36);
    ids.push(`${prefix}_${time}${rand}`);
  }
  return ids;
}
