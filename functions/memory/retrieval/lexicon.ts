import type nlpType from 'compromise/two';
import { boundedMemo, MEMO_KEY_CHARS } from './bounded-memo.ts';
import {
  singularsOf,
  toInfinitive,
  toSingular,
  type InflectionModel,
  type SuffixModel,
} from './compromise-inflections.ts';
import { LazyTable } from './lazy-table.ts';
import { SortedLines, sortedLinesOf } from './sorted-lines.ts';

/** compromise/two's default export: its model and methods. */
export type Compromise = typeof nlpType;

/**
 * The parts of compromise's model this module reads, as the lexicon asset holds them (JSON,
 * written by the build from compromise itself: `lexiconTablesOf`). Reading them from the asset
 * instead of importing compromise saves building its whole model (about 150 ms and 12 MiB of
 * an isolate's first question); compromise's code is no longer in the Worker's script.
 */
export interface LexiconTables {
  /** `one.lexicon`: 24,000 words with their tags (cities, countries, first names…). */
  lexicon: Record<string, string | string[]>;
  /** `two.switches`: ambiguous words and their two readings ("book" -> "Noun|Verb"). */
  switches: Record<string, string>;
  /** `one.tagSet`: each tag's parents. */
  parents: Record<string, string[]>;
  /** `one.prefixes`, `two.models.from*`, `two.irregularPlurals`: what the base forms read. */
  prefixes: Record<string, boolean>;
  fromPast: SuffixModel;
  fromPresent: SuffixModel;
  fromGerund: SuffixModel;
  fromParticiple: SuffixModel;
  irregularPlurals: Record<string, string>;
}

/** A property of a value compromise's types declare as a bare object, or undefined. */
function field(o: unknown, key: string): unknown {
  return typeof o === 'object' && o !== null && key in o ? Reflect.get(o, key) : undefined;
}

function record<T>(o: unknown, keep: (v: unknown) => v is T): Record<string, T> {
  const out: Record<string, T> = {};
  if (typeof o !== 'object' || o === null) return out;
  for (const [key, value] of Object.entries(o)) {
    // JSON.parse makes "__proto__" an own key, where compromise's objects would not have one.
    if (key === '__proto__') throw new Error('compromise lists a "__proto__" key');
    if (keep(value)) out[key] = value;
  }
  return out;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isTags = (v: unknown): v is string | string[] =>
  typeof v === 'string' || (Array.isArray(v) && v.every(isString));

function suffixModel(o: unknown): SuffixModel {
  const same = field(o, 'same');
  return {
    ...(field(o, 'ex') === undefined ? {} : { ex: record(field(o, 'ex'), isString) }),
    ...(Array.isArray(same) ? { same: same.filter(isString) } : {}),
    ...(field(o, 'fwd') === undefined ? {} : { fwd: record(field(o, 'fwd'), isString) }),
    ...(field(o, 'both') === undefined ? {} : { both: record(field(o, 'both'), isString) }),
  };
}

/** The tables read from compromise's model (the build writes them as the lexicon asset). */
export function lexiconTablesOf(nlp: Compromise): LexiconTables {
  const model: object = nlp.model();
  const one = field(model, 'one');
  const two = field(model, 'two');
  const models = field(two, 'models');
  const parents: Record<string, string[]> = {};
  for (const [tag, entry] of Object.entries(record(field(one, 'tagSet'), (v) => v !== null))) {
    const list = field(entry, 'parents');
    parents[tag] = Array.isArray(list) ? list.filter(isString) : [];
  }
  return {
    lexicon: record(field(one, 'lexicon'), isTags),
    switches: record(field(two, 'switches'), isString),
    parents,
    prefixes: record(field(one, 'prefixes'), (v): v is boolean => typeof v === 'boolean'),
    fromPast: suffixModel(field(models, 'fromPast')),
    fromPresent: suffixModel(field(models, 'fromPresent')),
    fromGerund: suffixModel(field(models, 'fromGerund')),
    fromParticiple: suffixModel(field(models, 'fromParticiple')),
    irregularPlurals: record(field(two, 'irregularPlurals'), isString),
  };
}

/** A word table: its own entry for a word, or undefined. */
type Lookup = (word: string) => unknown;

interface Lexicon {
  tags: Lookup;
  switches: Lookup;
  parents: Record<string, string[]>;
  inflections: InflectionModel;
}

/** A table's own entry for `key`, or undefined. */
function entry<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

function lexiconOf(
  tables: Omit<LexiconTables, 'lexicon' | 'switches'>,
  tags: Lookup,
  switches: Lookup,
): Lexicon {
  const { prefixes, fromPast, fromPresent, fromGerund, fromParticiple } = tables;
  const singularOf = singularsOf(tables.irregularPlurals);
  return {
    tags,
    switches,
    parents: tables.parents,
    inflections: { prefixes, fromPast, fromPresent, fromGerund, fromParticiple, singularOf },
  };
}

/** The lexicon asset: `LexiconTables` as JSON, its two word tables as sorted lines. */
type LexiconAsset = Omit<LexiconTables, 'lexicon' | 'switches'> & {
  lexicon: string;
  switches: string;
};

/** The asset's text (the build writes it, test/support/table-bytes.ts). */
export function lexiconAssetOf(nlp: Compromise): string {
  const tables = lexiconTablesOf(nlp);
  const asset: LexiconAsset = {
    ...tables,
    lexicon: sortedLinesOf(tables.lexicon),
    switches: sortedLinesOf(tables.switches),
  };
  return JSON.stringify(asset);
}

function decodeLexicon(bytes: Uint8Array): Lexicon {
  const asset = JSON.parse(new TextDecoder().decode(bytes)) as LexiconAsset;
  const words = new SortedLines(asset.lexicon);
  const switches = new SortedLines(asset.switches);
  return lexiconOf(
    asset,
    (word) => words.get(word),
    (word) => switches.get(word),
  );
}

/**
 * The lexicon asset's bytes, provided by tables/load-tables.ts once per isolate that analyses
 * text and read on the first word looked up (each look-up parses only its own entry); Node
 * processes install compromise's own model.
 */
const loaded = new LazyTable<Lexicon>(
  'the lexicon is not loaded: await loadTables() (tables/load-tables.ts) at the entry of the operation that analyses text',
  decodeLexicon,
);

/** Node processes: the tables read straight from compromise. */
export function installCompromise(nlp: Compromise): void {
  const tables = lexiconTablesOf(nlp);
  loaded.install(
    lexiconOf(
      tables,
      (word) => entry(tables.lexicon, word),
      (word) => entry(tables.switches, word),
    ),
  );
}

/** The lexicon asset's bytes (`lexiconAssetOf`), read on the first look-up. */
export function provideLexicon(bytes: Uint8Array): void {
  loaded.provide(bytes);
}

export function compromiseInstalled(): boolean {
  return loaded.provided();
}

/** Whether this isolate has read the lexicon asset (tests: a vector question does not). */
export function lexiconDecoded(): boolean {
  return loaded.decoded();
}

function readTags(word: string): readonly string[] {
  const tags = loaded.get().tags(word);
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
  const value = loaded.get().switches(word);
  if (typeof value !== 'string') return null;
  const [a, b] = value.split('|');
  return a && b ? [a, b] : null;
}

const ancestry = new Map<string, readonly string[]>();

/** A tag with every tag above it in compromise's tag set ("FirstName" -> Person, Noun…). */
export function tagAncestry(tag: string): readonly string[] {
  const known = ancestry.get(tag);
  if (known) return known;
  const out = [tag, ...(entry(loaded.get().parents, tag) ?? [])];
  ancestry.set(tag, out);
  return out;
}

/** The forms `baseForm` reduces, by the tag that names them. */
export type Inflection = 'Plural' | 'PastTense' | 'Gerund' | 'PresentTense' | 'Participle';

/** The base form of an inflected word by compromise's rules ("dogs" -> "dog", "walked" -> "walk"). */
export function baseForm(word: string, inflection: Inflection): string {
  const model = loaded.get().inflections;
  const root =
    inflection === 'Plural' ? toSingular(word, model) : toInfinitive(word, model, inflection);
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
