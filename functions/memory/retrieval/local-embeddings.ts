import { l2normalise, type Embedder } from './embedder.ts';
import { contentWords } from './text.ts';

export const LOCAL_MODEL_ID = 'local-hash-v1';
export const LOCAL_DIMENSIONS = 256;

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
export function embedLocal(text: string, dimensions = LOCAL_DIMENSIONS): Float32Array {
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

export const localEmbedder: Embedder = {
  modelId: LOCAL_MODEL_ID,
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => embedLocal(t));
  },
};
