// Retrofitting (Faruqui, Dodge, Jauhar, Dyer, Hovy & Smith, "Retrofitting Word Vectors to Semantic
// Lexicons", NAACL 2015): each word's vector is pulled towards its neighbours in a lexicon and held
// near where the corpus put it, so that "kitten" moves towards "cat" and "beagle" towards "dog",
// the kinds a question names where chat names the thing. Used by build-word-vectors.ts with
// WordNet's relations (wordnet.ts).

export interface RetrofitOptions {
  /** Weight of a word's own corpus vector against its neighbours' mean (the paper's α = 1). */
  alpha: number;
  /** Passes over the vocabulary (the paper's 10). */
  iterations: number;
}

/**
 * Retrofitted copies of `vectors`. Each is first scaled to unit length; then, `iterations` times,
 * every word with neighbours becomes (α·own + mean of its neighbours' current vectors) / (α + 1),
 * the paper's update with β = 1/degree. Finally each vector gets its own corpus norm back: the
 * sentence vectors weigh words by that norm and by frequency (sif-embeddings.ts), which
 * retrofitting is not meant to change. Words without neighbours keep their vector exactly.
 */
export function retrofit(
  vectors: readonly Float64Array[],
  neighbours: ReadonlyMap<number, readonly number[]>,
  options: RetrofitOptions,
): Float64Array[] {
  const norms = vectors.map((v) => Math.hypot(...v));
  const unit = vectors.map((v, row) => v.map((x) => x / ((norms[row] ?? 0) || 1)));
  // Words without neighbours never change, so a pass builds new vectors only for the others and
  // shares the rest with the pass before (each pass reads the one before, as in the paper).
  let current: readonly Float64Array[] = unit;
  for (let pass = 0; pass < options.iterations; pass++) {
    const next = [...current];
    for (const [row, near] of neighbours) {
      const own = unit[row];
      if (!own || near.length === 0) continue;
      const sum = own.map((x) => x * options.alpha);
      for (const other of near) {
        const v = current[other];
        if (v)
          for (let d = 0; d < sum.length; d++) sum[d] = (sum[d] ?? 0) + (v[d] ?? 0) / near.length;
      }
      for (let d = 0; d < sum.length; d++) sum[d] = (sum[d] ?? 0) / (options.alpha + 1);
      next[row] = sum;
    }
    current = next;
  }
  return current.map((v, row) => {
    if (!neighbours.has(row)) return Float64Array.from(vectors[row] ?? []);
    const length = Math.hypot(...v) || 1;
    return v.map((x) => (x / length) * (norms[row] ?? 0));
  });
}
