import nlp from 'compromise/two';

/** compromise's word list (24,000 words with their tags: cities, countries, first names…). */
let lexicon: object | null = null;

/** compromise's inflection rules, in the shape this module calls them. */
interface Transforms {
  verb: { toInfinitive: (word: string, model: object, tense: string) => string };
  noun: { toSingular: (word: string, model: object) => string };
}
let transforms: Transforms | null = null;

/** A property of a value compromise's types declare as a bare object, or undefined. */
function field(o: unknown, key: string): unknown {
  return typeof o === 'object' && o !== null && key in o ? Reflect.get(o, key) : undefined;
}

/** `methods().two.transform`, checked: the types declare `methods()` as a bare object. */
function transformsOf(methods: object): Transforms {
  const transform = field(field(methods, 'two'), 'transform');
  const toInfinitive = field(field(transform, 'verb'), 'toInfinitive');
  const toSingular = field(field(transform, 'noun'), 'toSingular');
  if (typeof toInfinitive !== 'function' || typeof toSingular !== 'function')
    throw new Error('compromise/two no longer exposes its verb and noun transforms');
  return {
    verb: { toInfinitive: (w, m, t) => String(toInfinitive(w, m, t)) },
    noun: { toSingular: (w, m) => String(toSingular(w, m)) },
  };
}

/** The tags compromise's lexicon gives a lower-cased word (none for a word it does not list). */
export function lexiconTags(word: string): string[] {
  if (lexicon === null) {
    const list = field(field(nlp.model(), 'one'), 'lexicon');
    lexicon = typeof list === 'object' && list !== null ? list : {};
  }
  const tags: unknown = Object.hasOwn(lexicon, word) ? Reflect.get(lexicon, word) : undefined;
  if (typeof tags === 'string') return [tags];
  return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [];
}

/** The tags the lexicon gives a lower-cased word, each alone ("Plural,Actor" is two). */
export function wordTags(word: string): string[] {
  return lexiconTags(word).flatMap((t) => t.split(','));
}

/** compromise's ambiguous words and their two readings ("book" -> "Noun|Verb"). */
let switches: object | null = null;

/** The two readings of a word compromise lists as ambiguous, or null. */
export function switchOf(word: string): [string, string] | null {
  if (switches === null) {
    const list = field(field(nlp.model(), 'two'), 'switches');
    switches = typeof list === 'object' && list !== null ? list : {};
  }
  const value: unknown = Object.hasOwn(switches, word) ? Reflect.get(switches, word) : undefined;
  if (typeof value !== 'string') return null;
  const [a, b] = value.split('|');
  return a && b ? [a, b] : null;
}

const ancestry = new Map<string, readonly string[]>();

/** A tag with every tag above it in compromise's tag set ("FirstName" -> Person, Noun…). */
export function tagAncestry(tag: string): readonly string[] {
  const known = ancestry.get(tag);
  if (known) return known;
  const parents = field(field(field(field(nlp.model(), 'one'), 'tagSet'), tag), 'parents');
  const out = [
    tag,
    ...(Array.isArray(parents) ? parents.filter((p): p is string => typeof p === 'string') : []),
  ];
  ancestry.set(tag, out);
  return out;
}

/** The forms `baseForm` reduces, by the tag that names them. */
export type Inflection = 'Plural' | 'PastTense' | 'Gerund' | 'PresentTense' | 'Participle';

/** The base form of an inflected word by compromise's rules ("dogs" -> "dog", "walked" -> "walk"). */
export function baseForm(word: string, inflection: Inflection): string {
  transforms ??= transformsOf(nlp.methods());
  const model: object = nlp.model();
  const root =
    inflection === 'Plural'
      ? transforms.noun.toSingular(word, model)
      : transforms.verb.toInfinitive(word, model, inflection);
  return root === '' ? word : root;
}

/**
 * The base form of a word the lexicon lists as an inflection ("went" -> "go", "people" ->
 * "person", "swam" -> "swim"), without tagging its sentence; null for any other word. The
 * irregular forms are the ones that matter, and the lexicon lists them: a regular form has its
 * base form's Porter stem already ("reviews" -> "review"), which is all the full-text index
 * compares, so whether the lexicon lists it changes nothing.
 */
export function listedLemma(word: string): string | null {
  const tags = lexiconTags(word);
  if (tags.length === 0) return null;
  transforms ??= transformsOf(nlp.methods());
  const model: object = nlp.model();
  let root: string | null = null;
  if (tags.includes('PastTense')) root = transforms.verb.toInfinitive(word, model, 'PastTense');
  else if (tags.includes('Participle'))
    root = transforms.verb.toInfinitive(word, model, 'Participle');
  else if (tags.includes('Plural')) root = transforms.noun.toSingular(word, model);
  return root !== null && root !== '' && root !== word ? root : null;
}
