/** Random, URL-safe, sortable-enough ids with a kind prefix (`fact_...`, `session_...`). */
export function newId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  const time = Date.now().toString(36).padStart(9, '0');
  let rand = '';
  for (const b of bytes) rand += (b % 36).toString(36);
  return `${prefix}_${time}${rand}`;
}
