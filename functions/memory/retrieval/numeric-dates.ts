/**
 * Days written as digits ("03.02.2024", "3/2/24", "25-12-2023"), read day first or month first.
 * chrono-node reads every such date month first (its English parser), and reads "night of
 * 03.02.2024" as tonight, so a question asking about the 3rd of February in a chat written in
 * Europe got the tokens of the 2nd of March, or of the day it was asked (issue 42).
 *
 * Which order: a part above 12 decides it ("25.12.2023" is day first, "12/25/2023" month first);
 * for the rest ("03.02.2024") the order a Context writes its dates in (`dateOrderOf` over its
 * other texts), and without one both readings: one of the two days is wrong, and it costs less to
 * match a turn of the wrong day than to miss the right one.
 */
export type DateOrder = 'dmy' | 'mdy';

/** A whole day (time-terms.ts's `DateParts` with every part known; not imported, so no circle). */
export interface Day {
  year: number;
  month: number;
  day: number;
}

export interface NumericDate {
  /** Where the date is in the text, and as written. */
  index: number;
  text: string;
  /** Every day it may mean, full dates only. */
  readings: Day[];
}

/** Day, month and year with one separator, not inside a longer run of digits (a version, a phone). */
const WITH_YEAR = /(?<![\d./-])(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})(?![\d]|[./-]\d)/g;
/** For the order only: a day and month with a slash ("23/03"), or with a year. */
const ANY_NUMERIC = /(?<![\d./-])(\d{1,2})([./])(\d{1,2})(?:\2(\d{4}|\d{2}))?(?![\d]|[./-]\d)/g;

function daysIn(month: number, year: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function valid(day: number, month: number, year: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(month, year);
}

/** "24" is 2024: a chat's two-digit years are this century's. */
function fullYear(text: string): number {
  const n = Number(text);
  return text.length === 2 ? 2000 + n : n;
}

/** The numeric dates in `text`, each with the days it may mean in the given order. */
export function numericDates(text: string, order?: DateOrder): NumericDate[] {
  const out: NumericDate[] = [];
  for (const m of text.matchAll(WITH_YEAR)) {
    const [whole, first, , second, y] = m;
    if (first === undefined || second === undefined || y === undefined) continue;
    const [a, b, year] = [Number(first), Number(second), fullYear(y)];
    const dayFirst = valid(a, b, year);
    const monthFirst = valid(b, a, year);
    const readings: Day[] = [];
    const dmy: Day = { year, month: b, day: a };
    const mdy: Day = { year, month: a, day: b };
    if (dayFirst && monthFirst && a !== b) {
      if (order !== 'mdy') readings.push(dmy);
      if (order !== 'dmy') readings.push(mdy);
    } else if (dayFirst) readings.push(dmy);
    else if (monthFirst) readings.push(mdy);
    if (readings.length > 0) out.push({ index: m.index, text: whole, readings });
  }
  return out;
}

/**
 * The order a set of texts writes its numeric dates in, from the dates only one order can read
 * ("23/03" is day first, "3/23" month first); null when none decides or they disagree as often.
 */
export function dateOrderOf(texts: Iterable<string>): DateOrder | null {
  let dmy = 0;
  let mdy = 0;
  for (const text of texts)
    for (const m of text.matchAll(ANY_NUMERIC)) {
      const [, first, separator, second, y] = m;
      // "13.5" is a number, not the 13th of May: a dot counts only with a year.
      if (first === undefined || second === undefined || (separator === '.' && y === undefined))
        continue;
      const [a, b] = [Number(first), Number(second)];
      const year = y === undefined ? 2000 : fullYear(y);
      if (a > 12 && valid(a, b, year)) dmy++;
      else if (b > 12 && valid(b, a, year)) mdy++;
    }
  if (dmy === mdy) return null;
  return dmy > mdy ? 'dmy' : 'mdy';
}
