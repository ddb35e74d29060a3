import { baseForm, switchOf, tagAncestry, wordTags, type Inflection } from './lexicon.ts';
import { boundedMemo, MEMO_KEY_CHARS } from './bounded-memo.ts';
import { CONTRACTED_ENDINGS, NEGATED_STEMS } from './text.ts';

/**
 * Part-of-speech tagging from compromise's tables, in one pass over the words. compromise (its
 * `two` build) supplies the data: a lexicon of 24,000 words with their tags (names, places,
 * irregular forms), the words it knows to be ambiguous ("book": noun or verb), its tag hierarchy
 * and its inflection rules. Its own pipeline is not run: its tokenizer alone cost about 80 µs a
 * conversational turn and the whole pipeline about 240 µs, which made tagging two thirds of a
 * write. This pass costs about 13 µs a turn in Node (30 µs before what the tables say of a
 * word was kept per word: docs/hot-path.md, sixteenth round) and, measured on the recall
 * benchmark, recall did not drop (dev hybrid_graph 0.541 -> 0.546, held-out 0.533 -> 0.540,
 * LoCoMo 0.729 -> 0.728; docs/retrieval.md, eighteenth round). What the analysis needs of a tag
 * is coarse (a name, a noun, a verb, a pronoun, a number, or none of these) and which words are
 * lemmas of which.
 */

export type TokenClass = 'proper' | 'noun' | 'verb' | 'pronoun' | 'number' | 'other';

export interface Token {
  /** Lower-cased surface form without punctuation or a possessive `'s`. */
  normal: string;
  /** Infinitive of a verb, singular of a plural noun; `normal` when the word is its own root. */
  root: string;
  cls: TokenClass;
  /** The word ends a sentence or a clause (punctuation after it), so a noun run stops there. */
  boundary: boolean;
}

function classify(tags: ReadonlySet<string>, capitalised: boolean): TokenClass {
  if (tags.has('Pronoun')) return 'pronoun';
  // Weekdays, months and "last night" link every turn that says them: not names, not topics.
  if (tags.has('Date') || tags.has('Month') || tags.has('WeekDay')) return 'other';
  if (tags.has('Value') || tags.has('Cardinal') || tags.has('Ordinal')) return 'number';
  if (tags.has('ProperNoun') || tags.has('Person') || tags.has('Place')) return 'proper';
  if (tags.has('Organization')) return 'proper';
  if (tags.has('Verb')) return 'verb';
  // "Maya's" inside a sentence is still Maya; "the dog's" owns the noun after it.
  if (tags.has('Noun')) return capitalised ? 'proper' : tags.has('Possessive') ? 'other' : 'noun';
  return 'other';
}

/**
 * Each tag set's class, capitalised or not. The sets come from `withAncestors`, which keeps one
 * per list of tags, so a set is its own key.
 */
const classes = new WeakMap<ReadonlySet<string>, [TokenClass, TokenClass]>();

function classOf(tags: ReadonlySet<string>, capitalised: boolean): TokenClass {
  let known = classes.get(tags);
  if (known === undefined) {
    known = [classify(tags, false), classify(tags, true)];
    classes.set(tags, known);
  }
  return known[capitalised ? 1 : 0];
}

/** A switch's reading as tags ("Adj|Past" -> Adjective or PastTense). */
const READING: Record<string, string[]> = {
  Noun: ['Noun'],
  Verb: ['Verb', 'Infinitive'],
  Unit: ['Unit'],
  Plural: ['Plural'],
  Person: ['Person'],
  Adj: ['Adjective'],
  Past: ['PastTense'],
  Actor: ['Actor'],
  Gerund: ['Gerund'],
  Place: ['Place'],
  Present: ['PresentTense'],
  Date: ['Date'],
};

/**
 * Words whose lexicon entry compromise's rules correct, or which it knows by rules alone: adverbs
 * of place ("here" is listed as a noun), possessive pronouns and the interjections of chat
 * ("hmm"), which would otherwise be nouns and join noun phrases.
 */
const CLOSED: Record<string, string> = Object.fromEntries([
  ...'here there somewhere anywhere everywhere nowhere'.split(' ').map((w) => [w, 'Adverb']),
  ...'yours ours theirs hers mine'.split(' ').map((w) => [w, 'Pronoun']),
  ...'ha haha hmm oof hiya ok okay yeah yep nope wow oh ah um lol aw'
    .split(' ')
    .map((w) => [w, 'Expression']),
]);

/**
 * Adjective endings that few nouns share; a word the lexicon does not list with one describes
 * rather than names ("gorgeous", "careless"). Not "-able", "-ive" or "-ic": "table", "detective"
 * and "clinic" are nouns.
 */
const ADJECTIVE_ENDING = /(?:ous|ful|less)$/;

/** Tags for a word the lexicon does not list, by its shape (compromise's fallback is a noun). */
function byShape(word: string): string[] {
  if (/^\p{N}/u.test(word)) return ['Value'];
  if (word.length > 4 && ADJECTIVE_ENDING.test(word)) return ['Adjective'];
  if (word.length > 4 && word.endsWith('ing')) return ['Gerund'];
  if (word.length > 3 && word.endsWith('ed')) return ['PastTense'];
  if (word.length > 3 && word.endsWith('ly')) return ['Adverb'];
  if (word.length > 3 && /[^su]s$/.test(word) && !word.endsWith('is')) return ['Plural'];
  return ['Noun'];
}

/** What the tables say of a lower-cased word, whatever its neighbours: read once per word. */
interface WordFacts {
  /** The word as a token: without characters outside letters, digits, `'`, space and `-`. */
  normal: string;
  /** Its closed-class tag, or the lexicon's tags (none for a word it does not list). */
  tags: readonly string[];
  /** Its two readings when compromise lists it as ambiguous and it is not a date. */
  ambiguous: [string, string] | null;
  /** `tags` with their ancestors. */
  listed: ReadonlySet<string>;
}

function readFacts(word: string): WordFacts {
  const closed = CLOSED[word];
  const tags = closed ? [closed] : wordTags(word);
  const switched = switchOf(word);
  // A month or a weekday that is also a name ("June", "August") stays the date it is listed as.
  const ambiguous = switched && !tags.some((t) => DATE_TAGS.has(t)) ? switched : null;
  const normal = word.replace(/[^\p{L}\p{N}' -]/gu, '');
  return { normal, tags, ambiguous, listed: withAncestors(tags) };
}

/** Words recur, so their facts are kept. */
const factsOf = boundedMemo(20_000, readFacts, MEMO_KEY_CHARS);

const INFLECTIONS: Inflection[] = ['Plural', 'PastTense', 'Gerund', 'PresentTense'];

/** The base form of a word by the inflection it carries (remembered: words recur). */
const baseOf = boundedMemo(
  20_000,
  (key: string): string => {
    const [word = '', inflection = ''] = key.split('|');
    const known = INFLECTIONS.find((t) => t === inflection);
    return known === undefined ? word : baseForm(word, known);
  },
  MEMO_KEY_CHARS,
);

/**
 * The root of a word read with these tags and their ancestors (a participle is also past tense):
 * the base form of its inflection, or the word itself.
 */
function rootOf(word: string, tagged: ReadonlySet<string>): string {
  const inflection = INFLECTIONS.find((t) => tagged.has(t));
  if (inflection === undefined) return word;
  // An infinitive listed as present tense ("walk") is its own root.
  if (inflection === 'PresentTense' && tagged.has('Infinitive')) return word;
  return baseOf(`${word}|${inflection}`);
}

const expanded = new Map<string, ReadonlySet<string>>();

/** The tags with their ancestors ("FirstName" also is Person, ProperNoun, Noun). */
function withAncestors(tags: readonly string[]): ReadonlySet<string> {
  const key = tags.join('|');
  const known = expanded.get(key);
  if (known) return known;
  const out = new Set(tags.flatMap((t) => tagAncestry(t)));
  expanded.set(key, out);
  return out;
}

interface Word {
  normal: string;
  /** The word of an @handle or #tag. */
  handle: boolean;
  capitalised: boolean;
  possessive: boolean;
  /** What follows the word up to the next one (punctuation, spaces). */
  after: string;
}

/** Pronouns whose `'s` is "is" ("it's", "that's"); on any other word it is a possessive. */
const IS_AFTER = new Set(
  'it he she that what there who here where how this when why everyone everything someone something nobody'.split(
    ' ',
  ),
);

const WORD = /[\p{L}\p{N}]+(?:['\u2019]\p{L}+)*(?:-[\p{L}\p{N}]+)*/gu;
const CONTRACTED = new RegExp(`^(.+?)(${[...Object.keys(CONTRACTED_ENDINGS), "'s"].join('|')})$`);

/** The words of `text` in sentences, contractions expanded ("I'm" -> "I" + "am"). */
function sentencesOf(text: string): Word[][] {
  const sentences: Word[][] = [[]];
  const matches = [...text.matchAll(WORD)];
  matches.forEach((m, i) => {
    const surface = m[0];
    const end = m.index + surface.length;
    const after = text.slice(end, matches[i + 1]?.index ?? text.length);
    const current = sentences[sentences.length - 1] ?? [];
    const folded = surface.toLowerCase();
    const lower = folded.includes('\u2019') ? folded.replace(/\u2019/g, "'") : folded;
    const handle = m.index > 0 && /[@#]/.test(text.charAt(m.index - 1));
    const capitalised = /^\p{Lu}/u.test(surface);
    // Only a word with an apostrophe can be a contraction or a possessive.
    const parts = lower.includes("'") ? CONTRACTED.exec(lower) : null;
    const base = parts?.[1] ?? lower;
    const suffix = parts?.[2];
    if (suffix === undefined)
      current.push({ normal: lower, handle, capitalised, possessive: false, after });
    else if (suffix === "'s" && !IS_AFTER.has(base))
      current.push({ normal: base, handle, capitalised, possessive: true, after });
    else {
      const first = suffix === "n't" ? (NEGATED_STEMS[base] ?? base) : base;
      current.push({ normal: first, handle, capitalised, possessive: false, after: '' });
      current.push({
        normal: CONTRACTED_ENDINGS[suffix] ?? 'is',
        handle: false,
        capitalised: false,
        possessive: false,
        after,
      });
    }
    if (/[.!?]/.test(after)) sentences.push([]);
  });
  return sentences.filter((s) => s.length > 0);
}

/** Words after which an ambiguous word reads as a noun, or as a verb. */
const BEFORE_NOUN = ['Determiner', 'Possessive', 'Adjective'];
const BEFORE_VERB = ['Pronoun', 'Modal'];

const DATE_TAGS = new Set(['Month', 'WeekDay', 'Date']);

/** The verb readings an adjective can share a spelling with ("adopted", "boring"). */
const VERB_OF_ADJECTIVE = new Set(['Past', 'Present', 'Gerund']);

/**
 * Which reading of an ambiguous word its neighbours call for, or null when they do not: a
 * capitalised "Maya" or "Jordan" is the person or place, a word after a determiner the noun, after
 * a pronoun or a modal the verb, and after a noun ("Maya adopted") an adjective's verb.
 */
function reading(
  [a, b]: [string, string],
  previous: ReadonlySet<string> | null,
  capitalised: boolean,
): string | null {
  if (capitalised) {
    const name = [a, b].find((r) => r === 'Person' || r === 'Place');
    if (name) return name;
  }
  if (previous === null) return null;
  const has = (tags: string[]) => tags.some((t) => previous.has(t));
  if (has(BEFORE_NOUN) && (a === 'Noun' || b === 'Noun')) return 'Noun';
  if (a === 'Adj' && VERB_OF_ADJECTIVE.has(b) && has(['Noun', 'Pronoun'])) return b;
  if (has(BEFORE_VERB) && [a, b].some((r) => r === 'Verb' || r === 'Past' || r === 'Present'))
    return a === 'Noun' || a === 'Adj' ? b : a;
  return null;
}

/** What "to" is to the word after it: a verb follows, as after a modal. */
const AFTER_TO: ReadonlySet<string> = new Set(['Modal']);

/** Sentences of tagged tokens; contractions are expanded ("I'm" -> "I am"). */
export function tag(text: string): Token[][] {
  return sentencesOf(text).map((words) => {
    let previous: ReadonlySet<string> | null = null;
    return words.flatMap((word, index): Token[] => {
      const facts = factsOf(word.normal);
      let tags = facts.tags;
      const ambiguous = facts.ambiguous;
      if (ambiguous) {
        // No neighbour decides: the lexicon's tag, or the first reading for an unlisted word.
        const pick = reading(ambiguous, previous, word.capitalised);
        const wanted = READING[pick ?? (tags.length === 0 ? ambiguous[0] : '')];
        // The lexicon's tag stands when it is that reading ("Singular" is the noun of "book").
        if (wanted && !wanted.some((t) => facts.listed.has(t))) tags = wanted;
      }
      if (tags.length === 0)
        tags = word.capitalised && index > 0 ? ['ProperNoun'] : byShape(word.normal);
      // "the support", "my run": a verb's base form after a determiner is its noun.
      else if (
        previous !== null &&
        BEFORE_NOUN.some((t) => previous?.has(t)) &&
        tags.every((t) => t === 'Infinitive' || t === 'PresentTense')
      )
        tags = ['Singular'];
      // "@alice", "#ops": names, as their text says.
      if (word.handle) tags = ['ProperNoun'];
      // A name the lexicon lists that is written in lower case is a word ("hope", "will").
      if (!word.capitalised && tags.some((t) => t.endsWith('Name') || t === 'Person'))
        tags = ['Noun'];
      if (word.possessive) tags = [...tags, 'Possessive'];
      const tagged = tags === facts.tags ? facts.listed : withAncestors(tags);
      previous = word.normal === 'to' ? AFTER_TO : tagged;
      const normal = facts.normal;
      if (normal === '') return [];
      // A capitalised noun inside a sentence ("Platform" in "The Platform team") is part of a name.
      const cls = classOf(tagged, index > 0 && word.capitalised);
      const root = cls === 'verb' || cls === 'noun' ? rootOf(normal, tagged) : normal;
      return [{ normal, root, cls, boundary: /[,.;:!?()"\u201C\u201D]/.test(word.after) }];
    });
  });
}
