/**
 * Questions that gather (issue 42, item 4): "What sports does Sam play?", "Which countries has
 * Sasha visited?". Their answer is several facts told on different days, none of them with the
 * question's word, while a chatty run that does use it ("Work is doing a sports day") matches the
 * words best and fills the top of the list with one session. So for such a question the list is
 * spread: at most SESSION_CAP turns of one session in the first k, the rest moved down in order.
 */

/** Turns of one session a gathering question's first k may hold. */
export const SESSION_CAP = 2;

// "What/which (kinds of) X <auxiliary> ...": X a category asked for by name.
const ASKS_FOR =
  /^\s*(?:what|which)\s+(?:(?:kinds?|sorts?|types?)\s+of\s+)?([a-z]+)\s+(?:do|does|did|has|have|had|is|are|was|were|can|could|would)\b/i;
// "What are/were <someone>'s (favourite) Xs?": the last word names the category.
const WHAT_ARE = /^\s*(?:what|which)\s+(?:are|were)\b.*?\b([a-z]+)\s*\?*\s*$/i;

/**
 * A plural noun asks for a set ("What sports…", "Which countries…"); a singular one for one value
 * ("What car does Chi drive?", "What time…"). A plural by its ending: -s but not -ss, -us or -is
 * ("class", "bus", "tennis" are singular).
 */
function plural(noun: string): boolean {
  return /s$/.test(noun) && !/(?:ss|us|is)$/.test(noun);
}

// Verbs of taste take a set even after a singular noun: "What food does Sam like?".
const TASTE = /\b(?:like|likes|love|loves|enjoy|enjoys|prefer|prefers)\b/i;

/**
 * The category a "what/which X …" question asks for by name, lower case ("sports", "car",
 * "foods" from "What are Jo's favourite foods?"), or null: kinds.ts lists its members.
 */
export function askedKind(question: string): string | null {
  const asks = ASKS_FOR.exec(question)?.[1];
  if (asks) return asks.toLowerCase();
  // "What are you doing tonight?" names no category: only a plural last word does.
  const are = WHAT_ARE.exec(question)?.[1]?.toLowerCase();
  return are !== undefined && plural(are) ? are : null;
}

/**
 * The category a question asks for every item of ("What sports does Sam play?" -> "sports",
 * "What food does Jo like?" -> "food"), or null when it asks for one value or names none.
 */
export function gatheredKind(question: string): string | null {
  const kind = askedKind(question);
  return kind !== null && (plural(kind) || TASTE.test(question)) ? kind : null;
}

/**
 * A gathering question whose answer is still told once, so the spread would only move it down
 * among its session's other turns (its kind's members still widen the search):
 * - pinned to one occasion: "What emotions did John feel during the party?", "…at the picnic
 *   with her friends?", "…after the networking event?", "…last summer?" (a day it names is read
 *   by the caller: named-days.ts);
 * - asking for one sort, in the singular: "What kind of music does Jo like?" is answered by the
 *   turn that says which sort ("mostly jazz"), where "What kinds of…" and "What sports…" ask
 *   for the members told over weeks.
 */
const TOLD_ONCE =
  /\b(?:during|after|before|while)\b|\blast\s+(?:night|week|weekend|month|year|summer|winter|spring|autumn|fall)\b|\b(?:at|on)\s+(?:the|a|an|his|her|their|my|your|our)\s+[a-z]|\b(?:kind|sort|type)\s+of\b/i;

/** Whether a gathering question's list is spread over sessions (`spreadSessions`). */
export function spreadsOverSessions(question: string, namesADay: boolean): boolean {
  return gatheredKind(question) !== null && !namesADay && !TOLD_ONCE.test(question);
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
