import { describe, expect, it } from 'vitest';
import { explainFusion, explainSingleArm } from './fusion-explain.ts';
import { fuseScores, weightsFor, type Arm, type Scored } from './fusion.ts';

const arms: { arm: Arm; list: Scored[] }[] = [
  {
    arm: 'bm25',
    list: [
      { seq: 1, score: 9 },
      { seq: 2, score: 4 },
      { seq: 3, score: 1 },
    ],
  },
  { arm: 'prf', list: [{ seq: 1, score: 3 }] },
  {
    arm: 'vector',
    list: [
      { seq: 3, score: 0.9 },
      { seq: 1, score: 0.5 },
    ],
  },
  {
    arm: 'soft',
    list: [
      { seq: 2, score: 0.7 },
      { seq: 4, score: 0.2 },
    ],
  },
];

describe('explainFusion', () => {
  it('sums to exactly the score fuseScores gives each item', () => {
    const weights = weightsFor(null);
    const explain = explainFusion(arms, weights);
    for (const { seq, score } of fuseScores(arms, weights)) {
      expect(explain(seq).fused).toBe(score);
    }
  });

  it('lists only the arms that took part, with their share of the weights', () => {
    // The local model's weights give prf 0: it did not take part.
    const weights = weightsFor(null);
    const item1 = explainFusion(arms, weights)(1);
    expect(Object.keys(item1.arms).sort()).toEqual(['bm25', 'soft', 'vector']);
    const total = weights.bm25 + weights.vector + weights.soft;
    expect(item1.arms.bm25).toEqual({
      rank: 1,
      score: 9,
      weight: weights.bm25 / total,
      contribution: weights.bm25 / total,
    });
    // Last of vector's two: normalised to 0, so listed but adding nothing.
    expect(item1.arms.vector).toEqual({
      rank: 2,
      score: 0.5,
      weight: weights.vector / total,
      contribution: 0,
    });
    // Not in soft's list: no rank, no score, nothing added.
    expect(item1.arms.soft).toEqual({
      rank: null,
      score: null,
      weight: weights.soft / total,
      contribution: 0,
    });
  });

  it('explains a one-arm mode by that arm alone', () => {
    const explain = explainSingleArm('bm25', arms[0]?.list ?? []);
    expect(explain(2)).toEqual({
      arms: { bm25: { rank: 2, score: 4, weight: 1, contribution: 4 } },
      fused: 4,
    });
  });
});
