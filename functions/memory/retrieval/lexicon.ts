import type nlpType from 'compromise/two';
import { boundedMemo, MEMO_KEY_CHARS } from './bounded-memo.ts';

/** compromise/two's default export: its model and methods. */
export type Compromise = typeof nlpType;

/**
 * compromise, installed by tables/load-tables.ts (a dynamic import, so that the bundle evaluates
 * it, and unpacks its 24,000-word lexicon, only in an isolate that analyses text: about 12 MiB
 * of heap the Worker's other isolates never pay).
 */
let compromise: Compromise | null = null;

export function installCompromise(nlp: Compromise): void {
  compromise = nlp;
}

export function compromiseInstalled(): boolean {
  return compromise !== null;
}

function nlp(): Compromise {
  if (compromise === null) {
    throw new Error(
      'compromise is not loaded: await loadTables() (tables/load-tables.ts) at the entry of the operation that analyses text',
    );
  }
  return compromise;
}

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

/** A table of compromise's model (`one.lexicon`, `two.switches`…), read on first use. */
function modelTable(...path: string[]): () => object {
  let table: object | null = null;
  return () => {
    if (table === null) {
      const found = path.reduce<unknown>((o, key) => field(o, key), nlp().model());
      table = typeof found === 'object' && found !== null ? found : {};
    }
    return table;
  };
}

/** A table's own entry for `key`, or undefined. */
function entry(table: object, key: string): unknown {
  return Object.hasOwn(table, key) ? Reflect.get(table, key) : undefined;
}

/** compromise's word list (24,000 words with their tags: cities, countries, first names…). */
const lexicon = modelTable('one', 'lexicon');
/** compromise's ambiguous words and their two readings ("book" -> "Noun|Verb"). */
const switches = modelTable('two', 'switches');
/** compromise's tag hierarchy: each tag with its parents. */
const tagSet = modelTable('one', 'tagSet');

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

function readTags(word: string): readonly string[] {
  const tags = entry(lexicon(), word);
  if (typeof tags === 'string') return [tags];
  return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [];
}

/**
 * The tags compromise's lexicon gives a lower-cased word (none for a word it does not list). Every
 * word of every write is looked up, most of them often: entries are kept once read.
 */
export const lexiconTags: (word: string) => readonly string[] = boundedMemo(
  20_000,
  readTags,
  MEMO_KEY_CHARS,
);

/** The tags the lexicon gives a lower-cased word, each alone ("Plural,Actor" is two). */
export function wordTags(word: string): string[] {
  return lexiconTags(word).flatMap((t) => t.split(','));
}

/** The two readings of a word compromise lists as ambiguous, or null. */
export function switchOf(word: string): [string, string] | null {
  const value = entry(switches(), word);
  if (typeof value !== 'string') return null;
  const [a, b] = value.split('|');
  return a && b ? [a, b] : null;
}

const ancestry = new Map<string, readonly string[]>();

/** A tag with every tag above it in compromise's tag set ("FirstName" -> Person, Noun…). */
export function tagAncestry(tag: string): readonly string[] {
  const known = ancestry.get(tag);
  if (known) return known;
  const parents = field(entry(tagSet(), tag), 'parents');
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
  transforms ??= transformsOf(nlp().methods());
  const model: object = nlp().model();
  const root =
    inflection === 'Plural'
      ? transforms.noun.toSingular(word, model)
      : transforms.verb.toInfinitive(word, model, inflection);
  return root === '' ? word : root;
}

/** The inflections `listedLemma` reduces, in the order it looks for them. */
const LISTED_INFLECTIONS: Inflection[] = ['PastTense', 'Participle', 'Plural'];

/**
 * The base form of a word the lexicon lists as an inflection ("went" -> "go", "people" ->
 * "person", "swam" -> "swim"), without tagging its sentence; null for any other word. The
 * irregular forms are the ones that matter, and the lexicon lists them: a regular form has its
 * base form's Porter stem already ("reviews" -> "review"), which is all the full-text index
 * compares, so whether the lexicon lists it changes nothing.
 */
export function listedLemma(word: string): string | null {
  const tags = lexiconTags(word);
  const inflection = LISTED_INFLECTIONS.find((t) => tags.includes(t));
  if (inflection === undefined) return null;
  const root = baseForm(word, inflection);
  return root !== word ? root : null;
}
