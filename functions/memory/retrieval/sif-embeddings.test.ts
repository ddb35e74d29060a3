import { describe, expect, it } from 'vitest';
import { cosine } from './embedder.ts';
import { embedHashed } from './local-embeddings.ts';
import {
  embedSif,
  rowOf,
  SIF_DIMENSIONS,
  SIF_MODEL_ID,
  sifEmbedder,
  sifWeight,
} from './sif-embeddings.ts';
import { wordVectorTable } from './word-vector-table.ts';

const similarity = (a: string, b: string) => cosine(embedSif(a), embedSif(b));

describe('local-sif-v2 embeddings', () => {
  it('are deterministic, 100-dimensional and L2-normalised', async () => {
    const [a, b] = await sifEmbedder.embed(['Alice likes green tea', 'Alice likes green tea']);
    expect(sifEmbedder.modelId).toBe(SIF_MODEL_ID);
    expect(SIF_MODEL_ID).toBe('local-sif-v2');
    expect(a?.length).toBe(SIF_DIMENSIONS);
    expect(SIF_DIMENSIONS).toBe(100);
    expect(Array.from(a ?? [])).toEqual(Array.from(b ?? []));
    expect(cosine(a ?? new Float32Array(), a ?? new Float32Array())).toBeCloseTo(1, 5);
  });

  it('put similar words closer than unrelated ones', () => {
    expect(similarity('dog', 'puppy')).toBeGreaterThan(similarity('dog', 'mortgage'));
    expect(similarity('job', 'career')).toBeGreaterThan(similarity('job', 'banana'));
    expect(similarity('wedding', 'marriage')).toBeGreaterThan(similarity('wedding', 'volcano'));
    expect(similarity('dog', 'puppy')).toBeGreaterThan(0.5);
  });

  it('match a paraphrase that shares no word with the question, where hashed n-grams cannot', () => {
    const question = 'Did she get a new pet?';
    const evidence = 'We adopted a beagle puppy from the shelter on Saturday';
    const distractor = 'The quarterly budget meeting ran late again';
    expect(similarity(question, evidence)).toBeGreaterThan(similarity(question, distractor));
    // The old model shares no word or trigram with it: only hash collisions give it a score.
    expect(cosine(embedHashed(question), embedHashed(evidence))).toBeLessThan(0.05);
    expect(similarity(question, evidence)).toBeGreaterThan(0.3);
  });

  it('weigh rare words above frequent ones (smooth inverse frequency)', () => {
    const table = wordVectorTable();
    const frequent = rowOf(table, 'said');
    const rare = rowOf(table, 'beagle');
    expect(frequent).toBeDefined();
    expect(rare).toBeDefined();
    expect(sifWeight(rare ?? 0)).toBeGreaterThan(sifWeight(frequent ?? 0) * 5);
    expect(sifWeight(rare ?? 0)).toBeLessThanOrEqual(1);
  });

  it('fall back to the base form of an inflection the table lacks, and skip unknown words', () => {
    const table = wordVectorTable();
    expect(table.rows.size).toBe(40_000);
    // Unknown tokens add nothing: the vector is the known words' alone.
    expect(Array.from(embedSif('puppy zqxjvbwk'))).toEqual(Array.from(embedSif('puppy')));
    // A text of unknown words or stopwords only is the zero vector (similar to nothing).
    expect(Array.from(embedSif('zqxjvbwk qqqzzyx')).every((x) => x === 0)).toBe(true);
    expect(Array.from(embedSif('the of and')).every((x) => x === 0)).toBe(true);
    expect(Array.from(embedSif('')).every((x) => x === 0)).toBe(true);
    // Inflections: a word outside the table is looked up by its base form.
    const inflected = [...table.rows.keys()].find(
      (w) =>
        !table.rows.has(`${w}ing`) && table.rows.has(w) && w.length > 4 && /[^aeiouy]$/.test(w),
    );
    expect(inflected).toBeDefined();
    const word = inflected ?? '';
    expect(rowOf(table, `${word}ing`)).toBe(rowOf(table, word));
    expect(rowOf(table, 'zqxjvbwking')).toBeUndefined();
  });
});
