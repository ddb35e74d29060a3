import { chatWordReader, emojiWords } from './chat-texture.ts';
import { l2normalise, type Embedder } from './embedder.ts';
import { contentWords, STOPWORDS } from './text.ts';
import { addRow, wordVectorTable, type WordVectorTable } from './word-vector-table.ts';
import { WORD_VECTOR_DIMENSIONS } from './word-vectors.generated.ts';

/**
 * The local provider's embedding model: general-purpose English word vectors (GloVe retrofitted to
 * WordNet, shipped as a static asset, see word-vector-table.ts) composed into a sentence vector with
 * smooth inverse frequency weights (Arora, Liang & Ma, "A Simple but Tough-to-Beat Baseline for
 * Sentence Embeddings", 2017). Unlike the hashed n-grams of `local-hash-v1`, it puts "dog" near
 * "beagle" and "job" near "bookshop manager", which is what a paraphrased question needs from the
 * vector arm. Deterministic, offline, no per-Context state: the same text always gets the same
 * vector.
 *
 * The id names the table: `local-sif-v1` was plain GloVe; `local-sif-v2` is the same words
 * retrofitted to WordNet (docs/retrieval.md, twenty-first round). Vectors of two tables are not
 * comparable, so a Context holding `local-sif-v1` vectors answers in bm25 until the `reembed` job
 * has rewritten them, like any change of model.
 */
export const SIF_MODEL_ID = 'local-sif-v2';
export const SIF_DIMENSIONS = WORD_VECTOR_DIMENSIONS;

/** SIF's `a`: the paper's recommended 1e-3 (not tuned on our benchmark). */
const SIF_A = 1e-3;
/**
 * Zipf estimate of a word's unigram probability from its frequency rank r in GloVe's 400k
 * vocabulary: p(r) = 1 / (r * H), H the harmonic number of 400k. The table keeps words in
 * frequency order, so no separate frequency list is shipped.
 */
const HARMONIC = Math.log(400_000) + 0.5772;

/** The row of a word, or of its base form when only that is in the vocabulary ("relocating"). */
export function rowOf(table: WordVectorTable, word: string): number | undefined {
  const exact = table.rows.get(word);
  if (exact !== undefined) return exact;
  for (const [suffix, replacement] of INFLECTIONS) {
    if (word.length - suffix.length < 3 || !word.endsWith(suffix)) continue;
    const row = table.rows.get(word.slice(0, -suffix.length) + replacement);
    if (row !== undefined) return row;
  }
  return undefined;
}

// Common English inflections, tried in order when a word itself is not in the table.
const INFLECTIONS: [string, string][] = [
  ['ies', 'y'],
  ['es', ''],
  ['s', ''],
  ['ied', 'y'],
  ['ed', ''],
  ['ed', 'e'],
  ['ing', ''],
  ['ing', 'e'],
  ['ly', ''],
];

/** SIF weight a / (a + p(w)) of the word at `row`: frequent words count less. */
export function sifWeight(row: number): number {
  const p = 1 / ((row + 1) * HARMONIC);
  return SIF_A / (SIF_A + p);
}

/**
 * Sentence vector: the SIF-weighted sum of the content words' vectors, L2-normalised. Words the
 * table does not know (rare names, typos) add nothing: a text of only such words is the zero
 * vector, which is similar to nothing (cosine 0), and bm25 still finds it by its words.
 */
export function embedSif(text: string): Float32Array {
  const table = wordVectorTable();
  const read = readChatWord(false);
  const v = new Float32Array(table.dimensions);
  const add = (word: string) => {
    const row = rowOf(table, word);
    if (row !== undefined) addRow(table, row, sifWeight(row), v);
  };
  for (const word of contentWords(text)) {
    // Chat texture ("tmrw", "sooo") is embedded as the words it stands for; spelling is not
    // corrected (a real rarer word read wrongly moves the whole vector; see text-analysis.ts).
    const readings = read(word);
    if (readings.length === 0) add(word);
    for (const r of readings) if (!STOPWORDS.has(r)) add(r);
  }
  for (const word of emojiWords(text)) add(word);
  return l2normalise(v);
}

const readers = new Map<boolean, (word: string) => readonly string[]>();

/**
 * The chat-texture reader over this table's vocabulary (chat-texture.ts), made on first use;
 * `correct` false reads abbreviations and stretched words but corrects no spelling.
 */
export function readChatWord(correct = true): (word: string) => readonly string[] {
  const known = readers.get(correct);
  if (known) return known;
  const table = wordVectorTable();
  const reader = chatWordReader(
    {
      rank: (word) => table.rows.get(word),
      known: (word) => rowOf(table, word) !== undefined,
    },
    correct,
  );
  readers.set(correct, reader);
  return reader;
}

export const sifEmbedder: Embedder = {
  modelId: SIF_MODEL_ID,
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => embedSif(t));
  },
};
