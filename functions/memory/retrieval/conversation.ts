import type { Scored } from './fusion.ts';

/** Top fused hits whose neighbouring turns are pulled in. */
const NEIGHBOUR_SOURCES = 30;

export interface ConversationView {
  /** The conversation label of an item, null when it has none. */
  sessionOf(seq: number): string | null;
  /** The admitted items right before and after an item in its conversation. */
  neighboursOf(seq: number): number[];
}

/**
 * Conversation structure on top of fused scores. A question and its answer sit in adjacent turns,
 * so a strong turn lends `neighbour` times its score to the turns just before and after it
 * (pulling them in when no arm found them); and a session in which turns score well is more likely
 * the one the question is about, so each turn gains `session` times its session's best score.
 */
export function withConversation(
  fused: Scored[],
  weights: { neighbour: number; session: number },
  view: ConversationView,
): Scored[] {
  const base = new Map(fused.map((r) => [r.seq, r.score]));
  const lent = new Map<number, number>();
  if (weights.neighbour > 0) {
    for (const src of fused.slice(0, NEIGHBOUR_SOURCES)) {
      for (const seq of view.neighboursOf(src.seq)) {
        lent.set(seq, Math.max(lent.get(seq) ?? 0, src.score));
      }
    }
  }
  const sessionBest = new Map<string, number>();
  if (weights.session > 0) {
    for (const r of fused) {
      const session = view.sessionOf(r.seq);
      if (session !== null)
        sessionBest.set(session, Math.max(sessionBest.get(session) ?? 0, r.score));
    }
  }
  const out: Scored[] = [];
  for (const seq of new Set([...base.keys(), ...lent.keys()])) {
    const session = weights.session > 0 ? view.sessionOf(seq) : null;
    const score =
      (base.get(seq) ?? 0) +
      weights.neighbour * (lent.get(seq) ?? 0) +
      weights.session * (session === null ? 0 : (sessionBest.get(session) ?? 0));
    out.push({ seq, score });
  }
  return out.sort((a, b) => b.score - a.score || a.seq - b.seq);
}
