import type { Scored } from './fusion.ts';

/** Top fused hits whose neighbouring turns are pulled in. */
const NEIGHBOUR_SOURCES = 30;

/** How far from a hit a turn can be and still gain from it: across one question (see below). */
export const EXCHANGE_REACH = 2;

/** A conversation turn as neighbour scores see it. */
export interface Turn {
  seq: number;
  session: string;
  position: number;
  /** Whether it ends with a question mark. */
  asks: boolean;
}

export interface ConversationView {
  /** The conversation label of an item, null when it has none. */
  sessionOf(seq: number): string | null;
  /**
   * The admitted turns within EXCHANGE_REACH positions of each of `seqs` in its session, those of
   * `seqs` that are turns among them; one read for all.
   */
  turnsAround(seqs: readonly number[]): Turn[];
}

/**
 * The turns a hit lends its score to: those right before and after it, and across a question. News
 * is often told over an exchange (the news, the other speaker's "Is she happy there?", then the
 * teller's "Annoyingly happy."), and a question finds the news but not the reply that says little
 * by itself, or the reply but not the news. So a turn two positions away gains too when the turn
 * between them asks. Only admitted turns are seen, so a question the reader may not read links
 * nothing. Dev hybrid_graph recall@10 0.501 -> 0.506 (multi-hop 0.371 -> 0.379), LoCoMo, never
 * tuned on, 0.710 -> 0.715 (docs/retrieval.md, tenth round).
 */
export function lendsTo(hit: Turn, at: (position: number) => Turn[]): number[] {
  const out: number[] = [];
  for (const step of [-1, 1]) {
    const next = at(hit.position + step);
    for (const t of next) out.push(t.seq);
    if (next.some((t) => t.asks)) for (const t of at(hit.position + 2 * step)) out.push(t.seq);
  }
  return out;
}

/**
 * Conversation structure on top of fused scores. A question and its answer sit in adjacent turns,
 * so a strong turn lends `neighbour` times its score to the turns around it (`lendsTo`; pulling
 * them in when no arm found them); and a session in which turns score well is more likely the one
 * the question is about, so each turn gains `session` times its session's best score.
 */
export function withConversation(
  fused: Scored[],
  weights: { neighbour: number; session: number },
  view: ConversationView,
): Scored[] {
  const base = new Map(fused.map((r) => [r.seq, r.score]));
  const lent = new Map<number, number>();
  if (weights.neighbour > 0) {
    const sources = fused.slice(0, NEIGHBOUR_SOURCES);
    const turns = view.turnsAround(sources.map((r) => r.seq));
    const bySeq = new Map(turns.map((t) => [t.seq, t]));
    const byPlace = new Map<string, Turn[]>();
    for (const t of turns) {
      const key = `${t.position}:${t.session}`;
      const here = byPlace.get(key);
      if (here) here.push(t);
      else byPlace.set(key, [t]);
    }
    for (const src of sources) {
      const hit = bySeq.get(src.seq);
      if (!hit) continue;
      for (const seq of lendsTo(hit, (p) => byPlace.get(`${p}:${hit.session}`) ?? []))
        lent.set(seq, Math.max(lent.get(seq) ?? 0, src.score));
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
