import { describe, expect, it } from 'vitest';
import { weightsFor } from './fusion.ts';
import {
  gatedWeights,
  gateFactor,
  GATE_FLOOR,
  GATE_HIGH,
  GATE_LOW,
  lexicalCoverage,
} from './lexical-gate.ts';

describe('lexical gate', () => {
  it('measures the share of the question’s content-word stems in a hit, stop words aside', () => {
    expect(
      lexicalCoverage('When did Caroline go hiking?', 'Caroline: I went hiking with friends'),
    ).toBe(
      2 / 3, // caroline, hike (stemmed: hiking), go — "go" is not in the hit ("went")
    );
    expect(lexicalCoverage('What is the dog called?', 'Maya: our beagle puppy is Biscuit')).toBe(0);
    expect(lexicalCoverage('the of and', 'anything')).toBe(0);
  });

  it('gives full weight below the low mark, none above the high mark, linear between', () => {
    expect(gateFactor(0)).toBe(1);
    expect(gateFactor(GATE_LOW)).toBe(1);
    expect(gateFactor(GATE_HIGH)).toBe(GATE_FLOOR);
    expect(gateFactor(1)).toBe(GATE_FLOOR);
    expect(gateFactor((GATE_LOW + GATE_HIGH) / 2)).toBeCloseTo((1 + GATE_FLOOR) / 2);
  });

  it('keeps bm25’s weight, gates the expansion and graph arms, and the vector arm only when asked', () => {
    const base = weightsFor(null);
    const closed = gatedWeights(base, 1, true);
    expect(closed).toMatchObject({
      bm25: base.bm25,
      synonym: base.synonym * GATE_FLOOR,
      graph: base.graph * GATE_FLOOR,
      vector: base.vector * GATE_FLOOR,
    });
    const open = gatedWeights(base, 0, true);
    expect(open).toEqual(base);
    const neural = weightsFor('@cf/baai/bge-base-en-v1.5');
    expect(gatedWeights(neural, 1, false)).toMatchObject({
      vector: neural.vector,
      graph: neural.graph * GATE_FLOOR,
    });
  });
});
