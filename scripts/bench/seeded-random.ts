// Deterministic pseudo-random numbers for the scale bench: the same seed gives the same fact,
// question and synthetic vector on every run, so any of them can be recomputed instead of kept.

/** FNV-1a over a string: a 32-bit seed. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: small, fast and deterministic; numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One element of a non-empty list, drawn with `next`. */
export function pick<T>(list: readonly T[], next: () => number): T {
  const value = list[Math.floor(next() * list.length)];
  if (value === undefined) throw new Error('pick from an empty list');
  return value;
}
