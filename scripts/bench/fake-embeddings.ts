// Synthetic embeddings of any width for the scale bench (`npm run bench -- scale --dims=768`):
// a text's vector is the sum of one seeded pseudo-random vector per word, normalised. Texts that
// share words get similar vectors, as with a real model, and the bench can recompute any fact's
// or query's vector from its text instead of holding a million of them.
import { hashString, seededRandom } from './seeded-random.ts';

/** Lower-cased words of a text, as the fake model sees them. */
export function embeddingWords(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/** Word vectors are memoised per width; the bench's vocabularies are a few thousand words. */
const MAX_MEMO = 50_000;
const memo = new Map<string, Float32Array>();

function wordVector(word: string, dims: number): Float32Array {
  const key = `${dims}:${word}`;
  const known = memo.get(key);
  if (known) return known;
  const next = seededRandom(hashString(word));
  const v = new Float32Array(dims);
  // Uniform in [-1, 1): independent words are nearly orthogonal at these widths.
  for (let i = 0; i < dims; i++) v[i] = next() * 2 - 1;
  if (memo.size >= MAX_MEMO) memo.clear();
  memo.set(key, v);
  return v;
}

/** The unit-length synthetic vector of `text` (all zeros for a text without words). */
export function syntheticEmbedding(text: string, dims: number): Float32Array {
  const out = new Float32Array(dims);
  for (const word of embeddingWords(text)) {
    const w = wordVector(word, dims);
    for (let i = 0; i < dims; i++) out[i] = (out[i] ?? 0) + (w[i] ?? 0);
  }
  let norm = 0;
  for (let i = 0; i < dims; i++) norm += (out[i] ?? 0) ** 2;
  if (norm === 0) return out;
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < dims; i++) out[i] = (out[i] ?? 0) * scale;
  return out;
}

/** Dot product of two vectors of the same width (cosine for unit vectors). */
export function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new Error(`dot: widths ${a.length} and ${b.length}`);
  let s = 0;
  // In range by the check above; the casts spare the exact scan's hot loop (50 questions x 1M
  // facts x 768) a branch per element.
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}
