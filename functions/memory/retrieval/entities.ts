import { STOPWORDS } from './text.ts';

/**
 * Entities extracted at write time without a model: quoted terms, capitalised phrases (names,
 * products, places), @handles and #tags. Returns normalised (lower-case) names, deduplicated.
 */
export function extractEntities(text: string, max = 24): string[] {
  const found = new Map<string, string>();
  const push = (raw: string): void => {
    const display = raw.trim().replace(/\s+/g, ' ');
    const name = display.toLowerCase();
    if (name.length < 2 || name.length > 80 || STOPWORDS.has(name)) return;
    if (!found.has(name)) found.set(name, display);
  };
  for (const m of text.matchAll(/["“]([^"”]{2,60})["”]/g)) if (m[1]) push(m[1]);
  for (const m of text.matchAll(/[@#][\p{L}\p{N}_-]{2,40}/gu)) push(m[0]);
  const capitalised =
    /\b(\p{Lu}[\p{L}\p{N}'-]*(?:\s+(?:of|de|van|von|the)?\s*\p{Lu}[\p{L}\p{N}'-]*)*)/gu;
  for (const m of text.matchAll(capitalised)) {
    const phrase = m[1] ?? '';
    // A single capitalised stopword ("The", "When") at a sentence start is not an entity.
    const first = phrase.split(/\s+/)[0]?.toLowerCase() ?? '';
    const rest = phrase
      .split(/\s+/)
      .slice(STOPWORDS.has(first) ? 1 : 0)
      .join(' ');
    if (rest) push(rest);
  }
  return [...found.keys()].slice(0, max);
}
