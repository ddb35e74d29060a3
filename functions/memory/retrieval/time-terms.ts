import * as chrono from 'chrono-node';
import { boundedMemo } from './bounded-memo.ts';

/**
 * Dates as index terms. A turn said on 8 May 2023 that mentions "yesterday" is about 7 May 2023:
 * chrono-node resolves such expressions against the item's `valid_from` at write time, and every
 * date the item is about becomes a small set of synthetic tokens stored in the FTS `terms` column
 * (`yr2023`, `ym202305`, `mo05`, `dy20230507`). A question that names a time ("in May 2023",
 * "on 7 May") is turned into the same tokens, so bm25 matches the period however it was worded.
 * The tokens are plain letters and digits, so the FTS tokenizer keeps each one whole.
 */

const MAX_RANGE_DAYS = 7;

/**
 * Predictive annotation (Prager et al., SIGIR 2000: index the type of answer a passage can give
 * as a token, and add that token to questions asking for it). An item whose content states a time
 * ("last Friday", "on 26 April", "tonight") carries `qadate` in its FTS `terms`; a question asking
 * when ("When did Pia become a parent?", "What year…", "How long ago…") asks for it. It is a
 * plain term, so bm25 weighs it by its rarity like any other: among the turns that name Pia, the
 * one that says when something happened now outranks small talk that shares a stemmed word
 * ("parents"). Chosen on the dev split (bm25 recall@10 0.321 -> 0.349, temporal 0.395 -> 0.471)
 * and checked once against LoCoMo (bm25 0.628 -> 0.631, hybrid 0.644 -> 0.648; temporal
 * 0.740 -> 0.764 and 0.760 -> 0.782); docs/retrieval.md.
 */
export const STATES_A_TIME = 'qadate';

const ASKS_WHEN =
  /^\s*(since )?when\b|\b(what|which) (day|date|month|year|week|weekend|season|time)\b|\bhow long ago\b/i;

/** Whether a question asks for a time (its answer is a date or a period). */
export function asksWhen(question: string): boolean {
  return ASKS_WHEN.test(question);
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

export interface DateParts {
  year: number | null;
  month: number | null;
  day: number | null;
}

/** The tokens for a date known to the given precision. */
export function tokensOf(parts: DateParts): string[] {
  const out: string[] = [];
  const { year, month, day } = parts;
  if (year !== null) out.push(`yr${year}`);
  if (month !== null) out.push(`mo${pad(month)}`);
  if (year !== null && month !== null) out.push(`ym${year}${pad(month)}`);
  if (year !== null && month !== null && day !== null)
    out.push(`dy${year}${pad(month)}${pad(day)}`);
  return out;
}

function utcParts(d: Date): DateParts {
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

function sameDayTokens(from: Date, to: Date): string[] {
  const out: string[] = [];
  const start = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  const end = Date.UTC(to.getUTCFullYear(), to.getUTCMonth(), to.getUTCDate());
  if (end < start || (end - start) / 86_400_000 > MAX_RANGE_DAYS) return out;
  for (let t = start; t <= end; t += 86_400_000) out.push(...tokensOf(utcParts(new Date(t))));
  return out;
}

/**
 * Tokens for the item's own date (when it was said) and for every date its content mentions,
 * resolved against that date. Deduplicated, in a stable order.
 */
export function contentTimeTerms(content: string, validFrom: string): string[] {
  const ref = new Date(validFrom);
  if (Number.isNaN(ref.getTime())) return [];
  const terms = new Set<string>(tokensOf(utcParts(ref)));
  for (const r of timesIn(content, ref)) {
    const start = r.start.date();
    terms.add(STATES_A_TIME);
    const end = r.end?.date();
    const dayKnown = r.start.isCertain('day') || !r.start.isCertain('month');
    if (end && !Number.isNaN(end.getTime())) {
      for (const t of sameDayTokens(start, end)) terms.add(t);
    }
    const parts = utcParts(start);
    for (const t of tokensOf(dayKnown ? parts : { ...parts, day: null })) terms.add(t);
  }
  return [...terms];
}

/** The times chrono-node reads in `content` against `ref` (eight at most, each with a date). */
function timesIn(content: string, ref: Date): chrono.ParsedResult[] {
  try {
    return chrono
      .parse(content, { instant: ref, timezone: 0 }, { forwardDate: false })
      .slice(0, 8)
      .filter((r) => !Number.isNaN(r.start.date().getTime()));
  } catch {
    // A date the parser cannot handle only costs the item its resolved-date tokens.
    return [];
  }
}

/** Any instant: whether a text states a time does not depend on the date it is read against. */
const ANY_REFERENCE = new Date(Date.UTC(2000, 0, 1));

/**
 * Whether a text states a time, as its `STATES_A_TIME` term says, read from its content (the
 * fused modes' answer type `date`, retrieval/answer-type.ts). Remembered per isolate: candidate
 * pools repeat from query to query.
 */
export const statesATime = boundedMemo(
  4_096,
  (content: string): boolean => timesIn(content, ANY_REFERENCE).length > 0,
);

const UNITS = ['year', 'month', 'day'] as const;

/** How finely a relative expression in a question names its period. */
type Precision = 'year' | 'month' | 'week' | 'weekend' | 'day';

function precisionOf(r: chrono.ParsedResult): Precision {
  if (/\bweekend\b/i.test(r.text)) return 'weekend';
  if (/\bweeks?\b/i.test(r.text)) return 'week';
  if (r.start.isCertain('day')) return 'day';
  if (r.start.isCertain('month')) return 'month';
  if (r.start.isCertain('year')) return 'year';
  // "last Tuesday" and the like state no component as certain: a weekday names a day.
  return 'day';
}

function daysAround(centre: Date, days: number): string[] {
  const day = 86_400_000;
  return sameDayTokens(
    new Date(centre.getTime() - days * day),
    new Date(centre.getTime() + days * day),
  ).filter((t) => t.startsWith('dy'));
}

/** Tokens for a relative period ("last year", "yesterday", "two weeks ago") resolved against `asOf`. */
function relativeTokens(r: chrono.ParsedResult): string[] {
  const start = r.start.date();
  if (Number.isNaN(start.getTime())) return [];
  const parts = utcParts(start);
  switch (precisionOf(r)) {
    case 'year':
      return tokensOf({ year: parts.year, month: null, day: null });
    case 'month':
      return tokensOf({ ...parts, day: null });
    // chrono puts "last week" and "two weeks ago" seven or fourteen days back: the calendar week
    // around that day is what a person means; a weekend is the days around its Sunday. Only the
    // days' own tokens: a week across a month's end would otherwise match both whole months.
    case 'week':
      return daysAround(start, 3);
    case 'weekend':
      return daysAround(start, 1);
    case 'day':
      return tokensOf(parts);
  }
}

/**
 * Tokens for the periods a query names ("in May", "May 2023", "on 7 May 2023", and with `asOf`
 * "last year", "yesterday", "two weeks ago"), and `STATES_A_TIME` when it asks when. Stated
 * components are taken as they are; relative ones only against `asOf`, the moment the question is
 * asked from (the query's `as_of`, by default when it was made). Without `asOf` a relative period
 * adds nothing: "last year" has no trustworthy reference date.
 */
export function queryTimeTerms(query: string, asOf?: Date): string[] {
  // Parsed against two far-apart reference instants: a component that changes with the
  // reference ("last year", "yesterday") is relative; what stays is what the query says.
  const parse = (instant: Date): chrono.ParsedResult[] => {
    try {
      return chrono.parse(query, { instant, timezone: 0 }).slice(0, 4);
    } catch {
      return [];
    }
  };
  const a = parse(new Date(Date.UTC(1990, 0, 15)));
  const b = parse(new Date(Date.UTC(2011, 6, 20)));
  // A third parse, against `asOf`, only for a question that names a relative period at all.
  let now: chrono.ParsedResult[] | null = null;
  const resolved = (i: number): chrono.ParsedResult | undefined => {
    if (!asOf || Number.isNaN(asOf.getTime())) return undefined;
    now ??= parse(asOf);
    return now[i];
  };
  const terms = new Set<string>(asksWhen(query) ? [STATES_A_TIME] : []);
  a.forEach((r, i) => {
    const other = b[i]?.start;
    const moves = (unit: 'year' | 'month' | 'day'): boolean =>
      r.start.get(unit) !== (other?.get(unit) ?? null);
    const stated = (unit: 'year' | 'month' | 'day'): number | null => {
      const value = r.start.isCertain(unit) ? (r.start.get(unit) ?? null) : null;
      return value !== null && !moves(unit) ? value : null;
    };
    // Relative: a component the parser is sure of moves with the reference ("last year"), or it
    // is sure of none and the date still moves ("last Tuesday"). "In May" is not: its month is
    // stated, and the year the parser guesses for it is not taken.
    const certain = UNITS.filter((u) => r.start.isCertain(u));
    const moving = certain.length > 0 ? certain.some(moves) : UNITS.some(moves);
    const relative = moving ? resolved(i) : undefined;
    if (relative && relative.text === r.text) {
      for (const t of relativeTokens(relative)) terms.add(t);
      return;
    }
    const year = stated('year');
    const month = stated('month');
    const day = month !== null ? stated('day') : null;
    if (month === null && year === null) return;
    for (const t of tokensOf({ year, month, day })) terms.add(t);
  });
  return [...terms];
}
