/**
 * Small, deterministic text helpers shared by the extractive (local) inference paths: word
 * tokens, a light stemmer and overlap scores. They are heuristics, documented as such in
 * docs/models.md; nothing here pretends to understand language.
 */

const STOPWORDS = new Set(
  (
    'a an the and or but if of to in on at by for with from as is are was were be been being am do ' +
    'does did has have had it its this that these those there their they them he she his her him ' +
    'i me my we our you your what which who whom whose when where why how now still currently ' +
    'so just also very really about into over than then too can could would should will shall may might ' +
    'any some all no not'
  ).split(' '),
);

// Words that ask about the same attribute; lets "where does Maya live" meet "Maya moved to Lisbon".
const SYNONYMS: Record<string, string> = {
  liv: 'live',
  mov: 'live',
  relocat: 'live',
  bas: 'live',
  hom: 'live',
  job: 'work',
  work: 'work',
  employ: 'work',
  profession: 'work',
  occup: 'work',
  favourit: 'favorit',
  favorit: 'favorit',
  lik: 'like',
  lov: 'like',
  enjoy: 'like',
  prefer: 'like',
  pet: 'pet',
  dog: 'pet',
  cat: 'pet',
};

export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu) ?? [];
}

/** A crude suffix stripper: enough to make "lives", "lived" and "living" meet. */
export function stem(word: string): string {
  let w = word.replace(/'s$/, '');
  for (const suffix of ['ations', 'ation', 'ing', 'ies', 'ied', 'ed', 'es', 's', 'e']) {
    if (w.length - suffix.length >= 3 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length) + (suffix === 'ies' || suffix === 'ied' ? 'y' : '');
      break;
    }
  }
  return w;
}

function canonical(word: string): string {
  const s = stem(word);
  return SYNONYMS[s] ?? s;
}

/** Content-word stems of a text, with synonyms folded together. */
export function terms(text: string): Set<string> {
  return new Set(
    words(text)
      .filter((w) => !STOPWORDS.has(w))
      .map(canonical),
  );
}

/** Share of the query's terms found in the candidate (0..1). */
export function coverage(query: Set<string>, candidate: Set<string>): number {
  if (query.size === 0) return 0;
  let hit = 0;
  for (const t of query) if (candidate.has(t)) hit++;
  return hit / query.size;
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const t of a) if (b.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

/** Lower case, single spaces, no trailing punctuation: two statements equal here are duplicates. */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}' ]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
