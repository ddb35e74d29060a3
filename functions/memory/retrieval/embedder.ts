/**
 * Turns texts into L2-normalised vectors. The local provider is `local-hash-v1`; the model-backed
 * issue adds workers-ai and openai implementations. Vectors are stored with `modelId` and a
 * search only ever compares vectors of the same model id.
 */
export interface Embedder {
  modelId: string;
  embed(texts: string[]): Promise<Float32Array[]>;
}

export function l2normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = (v[i] ?? 0) / norm;
  return v;
}

/** Dot product of two normalised vectors (their cosine similarity). */
export function cosine(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let dot = 0;
  for (let i = 0; i < n; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot;
}
