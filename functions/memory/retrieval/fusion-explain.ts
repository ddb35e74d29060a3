import { normalise, type Arm, type FusionWeights, type Scored } from './fusion.ts';

/**
 * Why an item ranked where it did, from the server's own numbers (`POST /query` with `explain`):
 * per arm that took part in the fusion, the item's rank and score in that arm's list, the arm's
 * share of the weights and what it added; the fused score is their sum. The hit's own `score`
 * then carries what came after fusion (content prior, answer type, neighbour and session
 * scores, repeats damped), so `score` and `fused` differ by exactly those adjustments.
 */

export interface ArmShare {
  /** 1-based rank in the arm's list; null when the arm did not list the item. */
  rank: number | null;
  /** The arm's own score (bm25, cosine, PageRank mass...); null when not listed. */
  score: number | null;
  /** The arm's weight divided by the sum over the arms that took part. */
  weight: number;
  /** weight x the min-max normalised score in its list (0 when not listed). */
  contribution: number;
}

export interface Explanation {
  arms: Partial<Record<Arm, ArmShare>>;
  /** The fused score: the sum of the contributions (one-arm modes: the arm's score). */
  fused: number;
}

/**
 * The explanation of each item for this fusion, computed with the same arithmetic as
 * `fuseScores` (same live arms, same order of sums), so `fused` is the score fusion gave it.
 */
export function explainFusion(
  arms: readonly { arm: Arm; list: Scored[] }[],
  weights: FusionWeights,
): (seq: number) => Explanation {
  const live = arms.filter((a) => a.list.length > 0 && weights[a.arm] > 0);
  const total = live.reduce((sum, a) => sum + weights[a.arm], 0);
  const tables = live.map(({ arm, list }) => ({
    arm,
    weight: weights[arm] / total,
    normalised: normalise(list),
    listed: new Map(list.map((r, i) => [r.seq, { rank: i + 1, score: r.score }])),
  }));
  return (seq) => {
    const out: Partial<Record<Arm, ArmShare>> = {};
    let fused = 0;
    for (const t of tables) {
      const listed = t.listed.get(seq);
      const s = t.normalised.get(seq);
      const contribution = s === undefined ? 0 : t.weight * s;
      if (s !== undefined) fused += contribution;
      out[t.arm] = {
        rank: listed?.rank ?? null,
        score: listed?.score ?? null,
        weight: t.weight,
        contribution,
      };
    }
    return { arms: out, fused };
  };
}

/** A one-arm mode (bm25, vector): the arm is the whole score. */
export function explainSingleArm(
  arm: Arm,
  ranked: readonly Scored[],
): (seq: number) => Explanation {
  const listed = new Map(ranked.map((r, i) => [r.seq, { rank: i + 1, score: r.score }]));
  return (seq) => {
    const hit = listed.get(seq);
    const score = hit?.score ?? 0;
    return {
      arms: {
        [arm]: {
          rank: hit?.rank ?? null,
          score: hit?.score ?? null,
          weight: 1,
          contribution: score,
        },
      },
      fused: score,
    };
  };
}
