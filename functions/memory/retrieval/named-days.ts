import type { Scored } from './fusion.ts';

/**
 * A question that names a day ("What did Jo cook on 14.12.2024?", "Who did Sam see on Jun 13,
 * 2023?") is about what was said that day, or told of it (the next morning's "made lasagne last
 * night" carries the day before as a date token, time-terms.ts). The day's tokens alone are weak
 * bm25 terms (a day's session holds dozens of turns, each with the token), so the turns holding
 * one are lifted by `DAY_WEIGHT` times the list's best score: among them the other arms still
 * decide the order, and only a turn of another day that matches far better stays above them. A
 * turn of the day that no arm listed joins with the lift alone. Real-chat dev (hybrid_graph,
 * R@10 per question / per gold turn): noisy 0.622 / 0.589 -> 0.632 / 0.596, tidy 0.683 / 0.656
 * -> 0.712 / 0.675 (date questions 0.875 -> 0.982); a lift of 1 gives the same; the
 * long-conversation set, whose questions name months, not days, does not move.
 */
export const DAY_WEIGHT = 0.5;

/** The day tokens (`dyYYYYMMDD`) among a question's period tokens: a day, not a month or year. */
export function namedDays(periods: readonly string[]): string[] {
  return periods.filter((t) => /^dy\d{8}$/.test(t));
}

/** `ranked` with the turns of `onDay` lifted (see the module's comment), best first. */
export function withNamedDays(
  ranked: Scored[],
  onDay: ReadonlySet<number>,
  weight = DAY_WEIGHT,
): Scored[] {
  if (onDay.size === 0 || weight <= 0) return ranked;
  const top = ranked[0]?.score ?? 1;
  const lift = weight * (top > 0 ? top : 1);
  const out = ranked.map((r) => (onDay.has(r.seq) ? { seq: r.seq, score: r.score + lift } : r));
  const listed = new Set(ranked.map((r) => r.seq));
  for (const seq of onDay) if (!listed.has(seq)) out.push({ seq, score: lift });
  return out.sort((a, b) => b.score - a.score || a.seq - b.seq);
}
