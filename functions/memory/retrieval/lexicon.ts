import nlp from 'compromise/two';

/** compromise's word list (24,000 words with their tags: cities, countries, first names…). */
let lexicon: object | null = null;

/** The tags compromise's lexicon gives a lower-cased word (none for a word it does not list). */
export function lexiconTags(word: string): string[] {
  if (lexicon === null) {
    const model: object = nlp.model();
    const one: unknown = 'one' in model ? model.one : null;
    const list: unknown =
      typeof one === 'object' && one !== null && 'lexicon' in one ? one.lexicon : null;
    lexicon = typeof list === 'object' && list !== null ? list : {};
  }
  const tags: unknown = Object.hasOwn(lexicon, word) ? Reflect.get(lexicon, word) : undefined;
  if (typeof tags === 'string') return [tags];
  return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [];
}
