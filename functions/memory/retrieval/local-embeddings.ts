import { l2normalise, type Embedder } from './embedder.ts';
import { contentWords } from './text.ts';

/**
 * The first local model, kept for Contexts embedded before `local-sif-v1` (their vectors are
 * re-embedded in the background; fusion keeps its weights for them) and as the lexical baseline
 * the recall benchmark compares against.
 */
export const HASH_MODEL_ID = 'local-hash-v1';
export const HASH_DIMENSIONS = 256;

// FNV-1a, 32 bit: fast, deterministic, good enough spread for feature hashing.
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function add(v: Float32Array, feature: string, weight: number): void {
  const h = fnv1a(feature);
  const index = h % v.length;
  // The sign bit from another part of the hash keeps collisions from only ever adding up.
  const sign = (h >>> 16) & 1 ? 1 : -1;
  v[index] = (v[index] ?? 0) + sign * weight;
}

/** Deterministic, offline embedding: hashed word unigrams, bigrams and character trigrams. */
export function embedHashed(text: string, dimensions = HASH_DIMENSIONS): Float32Array {
  const v = new Float32Array(dimensions);
  const tokens = contentWords(text);
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i] ?? '';
    add(v, `w:${w}`, 1);
    const next = tokens[i + 1];
    if (next) add(v, `b:${w} ${next}`, 0.5);
    const padded = `#${w}#`;
    for (let j = 0; j + 3 <= padded.length; j++) add(v, `c:${padded.slice(j, j + 3)}`, 0.25);
  }
  return l2normalise(v);
}

export const hashEmbedder: Embedder = {
  modelId: HASH_MODEL_ID,
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => embedHashed(t));
  },
};
