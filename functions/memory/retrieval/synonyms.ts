import { stemmer } from 'stemmer';
import { LazyTable } from './lazy-table.ts';
import { SortedLines, sortedLinesOf } from './sorted-lines.ts';
import { contentWords } from './text.ts';

/**
 * Query expansion with a general English thesaurus (the `synonyms` package: ~28k head words with
 * WordNet-derived synonym sets per part of speech). It bridges the commonest vocabulary gap of a
 * paraphrased question ("illness" for "sickness", "marriage" for "wedding") without a model.
 * Expansion words go to their own bm25 arm with a small fusion weight, so a wrong sense costs
 * little, and words already in the query are never added twice.
 */

type Entry = Partial<Record<string, string[]>>;
/** The package's dictionary: head word -> synonym lists by part of speech. */
export type Thesaurus = Record<string, Entry | undefined>;

/** The thesaurus's look-ups: a head word's entry, or undefined. */
type Lookup = (word: string) => Entry | undefined;

/**
 * The thesaurus: the package's dictionary as a static asset of sorted lines (head word, its
 * entry as JSON; retrieval/sorted-lines.ts, written by scripts/table-assets.ts), whose bytes
 * tables/load-tables.ts provides once per isolate. Nothing is parsed up front: a look-up reads
 * one line (a bm25 or vector question reads none). Node processes install the package's module.
 */
const installed = new LazyTable<Lookup>(
  'the thesaurus is not loaded: await loadTables() (tables/load-tables.ts) at the entry of the operation that reads it',
  (bytes) => {
    const lines = new SortedLines(new TextDecoder().decode(bytes));
    return (word) => lines.get(word) as Entry | undefined;
  },
);

export function installThesaurus(dictionary: Thesaurus): void {
  installed.install((word) => (Object.hasOwn(dictionary, word) ? dictionary[word] : undefined));
}

/** The asset's bytes (`thesaurusAssetOf`), read one line a look-up. */
export function provideThesaurus(bytes: Uint8Array): void {
  installed.provide(bytes);
}

/** The asset's text (the build writes it, test/support/table-bytes.ts). */
export function thesaurusAssetOf(dictionary: Thesaurus): string {
  return sortedLinesOf(dictionary);
}

export function thesaurusInstalled(): boolean {
  return installed.provided();
}

/** Whether this isolate has read the thesaurus asset (tests: a bm25 question does not). */
export function thesaurusDecoded(): boolean {
  return installed.decoded();
}

/** A head word's synonym lists by part of speech, or undefined when the thesaurus lacks it. */
export function thesaurusEntry(word: string): Entry | undefined {
  return installed.get()(word);
}

/** Candidate head words for an inflected token ("relocated" -> "relocate", "relocat"). */
function lemmas(word: string): string[] {
  const out = [word];
  if (word.endsWith('ies')) out.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) out.push(word.slice(0, -2));
  if (word.endsWith('s')) out.push(word.slice(0, -1));
  if (word.endsWith('ed')) out.push(word.slice(0, -2), word.slice(0, -1));
  if (word.endsWith('ing')) out.push(word.slice(0, -3), `${word.slice(0, -3)}e`);
  return out;
}

/** Up to `max` synonyms of the query's content words, none sharing a stem with the query. */
export function synonymTerms(query: string, max = 16): string[] {
  const words = contentWords(query).filter((w) => w.length >= 3);
  const seen = new Set(words.map((w) => stemmer(w)));
  const out: string[] = [];
  for (const word of words) {
    const entry = lemmas(word)
      .map((l) => thesaurusEntry(l))
      .find((e) => e !== undefined);
    if (!entry) continue;
    for (const list of Object.values(entry)) {
      for (const syn of list ?? []) {
        // Multi-word and one-letter entries (part-of-speech markers) are not index terms.
        if (!/^[a-z]{3,}$/.test(syn)) continue;
        const stem = stemmer(syn);
        if (seen.has(stem)) continue;
        seen.add(stem);
        out.push(syn);
        if (out.length >= max) return out;
      }
    }
  }
  return out;
}
