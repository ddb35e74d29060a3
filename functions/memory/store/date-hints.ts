import { dateOrderOf } from '../retrieval/numeric-dates.ts';
import type { DateHints } from '../retrieval/time-terms.ts';
import { KeptUntilWrite } from './counts.ts';

/**
 * What a Context's own dates say about a question's (issue 42, item 3; retrieval/time-terms.ts
 * `DateHints`): the order its messages write numeric dates in ("Are you free on 4/23?" is month
 * first, so "03/04/2024" in a question is the 4th of March), and its latest date (a day named
 * without a year, "the 3rd of February", is the latest such day on or before it). Read from the
 * Context's most recent items, only for a question that writes a date in digits or names a month,
 * and kept until the next write.
 */

/** Recent items read for the hints: a chat's date habits show within a few weeks of messages. */
const SAMPLE = 2000;
/** A date in digits ("03.02.2024", "4/23") or a month's name: the questions that use hints. */
const NEEDS_HINTS =
  /\d{1,4}\s*[./-]\s*\d{1,2}|\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b/i;

const kept = new KeptUntilWrite<{ hints: DateHints | null }>(() => ({ hints: null }));

function readHints(sql: SqlStorage): DateHints {
  const rows = sql
    .exec<{ content: string; valid_from: string | null }>(
      'SELECT content, valid_from FROM items ORDER BY seq DESC LIMIT ?',
      SAMPLE,
    )
    .toArray();
  const hints: DateHints = {};
  const order = dateOrderOf(rows.map((r) => r.content));
  if (order !== null) hints.order = order;
  let latest = Number.NEGATIVE_INFINITY;
  for (const row of rows) {
    const at = Date.parse(row.valid_from ?? '');
    if (at > latest) latest = at;
  }
  if (Number.isFinite(latest)) hints.latest = new Date(latest);
  return hints;
}

/** The hints for `question` (none when it has no date they could decide). */
export function dateHintsFor(sql: SqlStorage, question: string): DateHints {
  if (!NEEDS_HINTS.test(question)) return {};
  const memo = kept.get(sql);
  memo.hints ??= readHints(sql);
  return memo.hints;
}
