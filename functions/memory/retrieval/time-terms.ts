import * as chrono from 'chrono-node';
import { boundedMemo, MEMO_KEY_CHARS } from './bounded-memo.ts';
import { CHAT_ABBREVIATIONS } from './chat-abbreviations.ts';
import { numericDates, type DateOrder } from './numeric-dates.ts';

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

/**
 * What chrono-node reads as a time but a person does not mean as a date, so it must not date an
 * item or a question (nor mark it as stating a time):
 * - "now": the moment of saying, which says nothing about the item ("where does she live now?"
 *   asks for the latest state, not for what was said today);
 * - a bare time of day ("in the morning", "the evening after the party", "at midnight") or a
 *   bare "weekend": no day of its own, and chrono pins it to the reference day;
 * - durations ("for three days", "for about an hour") and minutes or hours ahead ("in five
 *   minutes"): how long, not when;
 * - lower-case weekday and month abbreviations ("the sun was out", "sat down", "mar"): words;
 * - "a day out": an outing, read as "a day later".
 * With them, 3,000 of the recall set's 7,900 turns were marked as stating a time; without them
 * 1,579 are, and dev recall@10 of hybrid_graph rose 0.527 -> 0.539, temporal 0.750 -> 0.790
 * (docs/retrieval.md, seventeenth round).
 */
const NOT_DATES = [
  /^(?:right )?now$/,
  /^(?:the |that |in the |at )?(?:morning|evening|afternoon|night|noon|midnight)$/,
  /^(?:the |a |at the |on the )?weekend$/,
  /^for\b/,
  /^(?:in|after|within)\b.*\b(?:seconds?|minutes?|mins?|hours?|hrs?)$/,
  /\bout$/,
];
const ABBREVIATION =
  /^(?:sun|sat|mon|tue|wed|thu|fri|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)\.?$/;

/** Whether a time chrono-node found names a date (see `NOT_DATES`). */
function namesADate(r: chrono.ParsedResult): boolean {
  const raw = r.text.trim().replace(/[,.;:!?]+$/, '');
  if (ABBREVIATION.test(raw)) return false;
  const text = raw.toLowerCase();
  return !NOT_DATES.some((re) => re.test(text));
}

/**
 * Words without one of which chrono-node reads no time in text that has no digit: month and
 * weekday names and their abbreviations, the casual days and parts of a day, and the units a
 * relative time counts ("a week ago", "last month"; "last" or "ago" alone dates nothing). Checked
 * over 64,566 texts (the committed recall sets, LoCoMo, the scale bench's facts and questions):
 * chrono dated 24,076, each with a digit or one of these words, and 22,763 have neither
 * (`time-cues.test.ts` keeps the check). chrono runs its hundred-odd expressions over every text
 * it is given (about 70 us a fact at ingest, and 200 ms to compile them on an isolate's first
 * question), so text with neither is not given to it.
 */
const TIME_CUES = new Set(
  (
    'january february march april may june july august september october november december ' +
    'jan feb mar apr jun jul aug sep sept oct nov dec ' +
    'monday tuesday wednesday thursday friday saturday sunday ' +
    'mondays tuesdays wednesdays thursdays fridays saturdays sundays ' +
    'mon tue tues wed thu thur thurs fri sat sun ' +
    'now today tonight tomorrow tmr tmrw yesterday overmorrow ' +
    'morning afternoon evening night noon midnight midday ' +
    'second seconds sec secs minute minutes min mins hour hours hr hrs day days week weeks ' +
    'weekend weekends fortnight fortnights month months quarter quarters year years decade ' +
    'decades clock oclock'
  ).split(' '),
);

/** Whether chrono-node may read a time in `text` (`TIME_CUES`); false: it reads none. */
export function mayNameATime(text: string): boolean {
  if (/\d/.test(text)) return true;
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? [])
    if (TIME_CUES.has(word)) return true;
  return false;
}

/**
 * Chat's spellings of time words, from the texting abbreviations (chat-abbreviations.ts) that
 * stand for one of `TIME_CUES`: "2nite", "tmrw", "yday", "last nite", "10 mins". chrono-node
 * reads none of them, so a chat's "made lasagne last nite" would carry no date.
 */
let timeSpellings: ReadonlyMap<string, string> | null = null;

function spelledTimes(): ReadonlyMap<string, string> {
  timeSpellings ??= new Map(
    [...CHAT_ABBREVIATIONS].flatMap(([written, words]) => {
      const [word] = words;
      return words.length === 1 && word !== undefined && TIME_CUES.has(word)
        ? [[written, word] as const]
        : [];
    }),
  );
  return timeSpellings;
}

/** `text` with chat's spellings of time words written out ("last nite" -> "last night"). */
function withTimeWords(text: string): string {
  const spelled = spelledTimes();
  return text.replace(/[\p{L}\d]+/gu, (w) => spelled.get(w.toLowerCase()) ?? w);
}

/** The times chrono-node reads in `content` against `ref` (eight at most, each with a date). */
function timesIn(written: string, ref: Date): chrono.ParsedResult[] {
  const content = withTimeWords(written);
  if (!mayNameATime(content)) return [];
  try {
    return chrono
      .parse(content, { instant: ref, timezone: 0 }, { forwardDate: false })
      .filter(namesADate)
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
  MEMO_KEY_CHARS,
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
export function queryTimeTerms(query: string, asOf?: Date, hints?: DateHints): string[] {
  return queryPeriods(query, asOf, hints).terms;
}

/**
 * What the Context knows about its dates, for a question's dates that do not say it themselves:
 * the order it writes numeric dates in (`dateOrderOf` over its texts), and its latest date, so
 * "on the 3rd of February" is the latest 3 February on or before it (a chat's questions are about
 * its past). Without hints, an ambiguous numeric date gives both readings and a day without a
 * year gives its month only, as before.
 */
export interface DateHints {
  order?: DateOrder;
  latest?: Date;
}

export interface QueryPeriods {
  /** Date tokens of the periods the query names, and `STATES_A_TIME` when it asks when. */
  terms: string[];
  /** The query without the words of the periods that gave tokens ("last November", "in 2023"). */
  rest: string;
  /**
   * The query without the words of its relative periods only ("last year", the "last" of "last
   * November"), for bm25: they say nothing a turn would repeat ("last" matched "last Tuesday"),
   * while a stated month or year may be written in the turn as it is in the question.
   */
  lexical: string;
}

/** `queryTimeTerms`, with the query's words that the date tokens stand for taken out. */
export function queryPeriods(query: string, asOf?: Date, hints: DateHints = {}): QueryPeriods {
  const terms = new Set<string>(asksWhen(query) ? [STATES_A_TIME] : []);
  const spans: [number, number][] = [];
  const relativeSpans: [number, number][] = [];
  // Days written as digits are read here, in the Context's order, and hidden from chrono-node
  // (blanked to keep every offset), which would read them month first. Their digits leave bm25's
  // words too: a turn does not repeat "03.02.2024", and "02" or "2024" match any number.
  const numeric = numericDates(query, hints.order);
  let hidden = query;
  for (const n of numeric) {
    for (const day of n.readings) for (const t of tokensOf(day)) terms.add(t);
    spans.push([n.index, n.index + n.text.length]);
    relativeSpans.push([n.index, n.index + n.text.length]);
    hidden = `${hidden.slice(0, n.index)}${' '.repeat(n.text.length)}${hidden.slice(n.index + n.text.length)}`;
  }
  // Parsed against two far-apart reference instants: a component that changes with the
  // reference ("last year", "yesterday") is relative; what stays is what the query says.
  const parse = (instant: Date): chrono.ParsedResult[] => {
    if (!mayNameATime(hidden)) return [];
    try {
      return chrono.parse(hidden, { instant, timezone: 0 }).filter(namesADate).slice(0, 4);
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
  const years = new Set<number>();
  const months: { month: number; day: number | null; at: number }[] = [];
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
      const tokens = relativeTokens(relative);
      for (const t of tokens) terms.add(t);
      if (tokens.length > 0) {
        spans.push([r.index, r.index + r.text.length]);
        relativeSpans.push([r.index, r.index + r.text.length]);
      }
      const { year } = utcParts(relative.start.date());
      if (precisionOf(relative) === 'year' && year !== null) years.add(year);
      return;
    }
    const year = stated('year');
    const month = stated('month');
    const day = month !== null ? stated('day') : null;
    if (month === null && year === null) return;
    for (const t of tokensOf({ year, month, day })) terms.add(t);
    spans.push([r.index, r.index + r.text.length]);
    if (month === null && year !== null) years.add(year);
    if (month !== null && year === null) months.push({ month, day, at: r.index });
  });
  // A month without a year takes one from the question: "last November" is the latest November
  // before it was asked (chrono reads only "November"), "in June last year" is June of that year.
  for (const { month, day, at } of months) {
    const before = query.slice(0, at);
    const ofQuestion = yearOfMonth(before, month, asOf);
    // Only the "last" goes from bm25's words (`without` takes it with the empty span).
    if (ofQuestion !== undefined) relativeSpans.push([at, at]);
    const year =
      ofQuestion ??
      (years.size === 1 ? [...years][0] : undefined) ??
      (day !== null ? latestYear(month, day, hints.latest) : undefined);
    if (year !== undefined) for (const t of tokensOf({ year, month, day })) terms.add(t);
  }
  return { terms: [...terms], rest: without(query, spans), lexical: without(query, relativeSpans) };
}

/** `text` without the given character spans, each with an "in", "on", "last"... before it. */
function without(text: string, spans: [number, number][]): string {
  let out = text;
  // Right to left, so earlier offsets stay valid.
  for (const [from, to] of [...spans].sort((x, y) => y[0] - x[0])) {
    const lead = /\b(?:in|on|during|last|past|this|next|of)\s+$/i.exec(out.slice(0, from));
    out = `${out.slice(0, lead ? from - lead[0].length : from)} ${out.slice(to)}`;
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** The year of the latest `month`/`day` on or before `latest` ("the 3rd of February" in a chat). */
function latestYear(month: number, day: number, latest: Date | undefined): number | undefined {
  if (!latest || Number.isNaN(latest.getTime())) return undefined;
  const year = latest.getUTCFullYear();
  return Date.UTC(year, month - 1, day) <= latest.getTime() ? year : year - 1;
}

/** The year of "last May", "this May" or "next May" (the words before the month) against `asOf`. */
function yearOfMonth(before: string, month: number, asOf: Date | undefined): number | undefined {
  if (!asOf || Number.isNaN(asOf.getTime())) return undefined;
  const which = /\b(last|past|this|next)\s+$/i.exec(before)?.[1]?.toLowerCase();
  if (which === undefined) return undefined;
  const year = asOf.getUTCFullYear();
  const current = asOf.getUTCMonth() + 1;
  if (which === 'this') return year;
  if (which === 'next') return month > current ? year : year + 1;
  return month < current ? year : year - 1;
}
