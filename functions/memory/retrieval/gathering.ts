/**
 * Questions that gather (issue 42, item 4): "What sports does Sam play?", "Which countries has
 * Sasha visited?". Their answer is several facts told on different days, none of them with the
 * question's word, while a chatty run that does use it ("Work is doing a sports day") matches the
 * words best and fills the top of the list with one session. So for such a question the list is
 * spread: at most SESSION_CAP turns of one session in the first k, the rest moved down in order.
 */

/** Turns of one session a gathering question's first k may hold. */
export const SESSION_CAP = 2;

// The head noun of "what/which (kinds of) X <auxiliary>": a category asked for by name.
const GATHERING =
  /^\s*(?:what|which)\s+(?:(?:kinds?|sorts?|types?)\s+of\s+)?([a-z]+)\s+(?:do|does|did|has|have|had|is|are|was|were|can|could|would)\b/i;

// Nouns that ask for one value, not a set: "What time does...", "What day did...".
const SINGLE_VALUE = new Set(
  'time day date year month week hour age size colour color name number price'.split(' '),
);

/** Whether a question asks for every item of a category ("What sports does Sam play?"). */
export function asksToGather(question: string): boolean {
  const noun = GATHERING.exec(question)?.[1]?.toLowerCase();
  return noun !== undefined && !SINGLE_VALUE.has(noun);
}

/**
 * `ranked` with its first `k` holding at most `cap` items of any one session; items over the cap
 * keep their order after the others. Items without a session are never capped.
 */
export function spreadSessions<T extends { seq: number }>(
  ranked: readonly T[],
  k: number,
  sessionOf: (seq: number) => string | null,
  cap = SESSION_CAP,
): T[] {
  const kept: T[] = [];
  const later: T[] = [];
  const counts = new Map<string, number>();
  for (const item of ranked) {
    if (kept.length >= k) {
      later.push(item);
      continue;
    }
    const session = sessionOf(item.seq);
    const n = session === null ? 0 : (counts.get(session) ?? 0);
    if (session !== null && n >= cap) later.push(item);
    else {
      kept.push(item);
      if (session !== null) counts.set(session, n + 1);
    }
  }
  return [...kept, ...later];
}
