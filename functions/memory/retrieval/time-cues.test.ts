import * as chrono from 'chrono-node';
import { describe, expect, it } from 'vitest';
import { factAt, questionAt } from '../../../scripts/bench/scale-facts.ts';
import conversations from '../../../test/fixtures/conversations/conversations.json';
import recallSet from '../../../test/fixtures/recall-conversations/recall-set.json';
import { mayNameATime } from './time-terms.ts';

// chrono-node is given only text with a digit or a time word (time-terms.ts `TIME_CUES`). This
// keeps the reason true: over the committed sets' texts and the scale bench's facts, chrono
// dates none of the texts the cue check turns away, and a new chrono-node that starts to read
// times in other words fails here.

/** Every string of at least four characters in a fixture. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.length > 3) out.push(value);
  } else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === 'object')
    for (const v of Object.values(value)) strings(v, out);
  return out;
}

describe('the text chrono-node is given', () => {
  const texts = [
    ...new Set([
      ...strings(conversations),
      ...strings(recallSet),
      ...Array.from({ length: 4000 }, (_, i) => factAt(i).content),
      ...Array.from({ length: 200 }, (_, i) => questionAt(i).query),
    ]),
  ];
  const instant = new Date(Date.UTC(2011, 6, 20));

  it('holds every text chrono-node reads a time in', () => {
    const turnedAway = texts.filter((t) => !mayNameATime(t));
    // A real share of the texts is turned away: the check is worth its cost.
    expect(turnedAway.length).toBeGreaterThan(texts.length / 10);
    const dated = turnedAway.filter((t) => chrono.parse(t, { instant, timezone: 0 }).length > 0);
    expect(dated).toEqual([]);
  }, 120_000);

  it('passes digits, month and weekday names, casual days and relative units', () => {
    for (const t of [
      'on 3/4',
      'in May',
      'last Tuesday',
      "tomorrow's plan",
      'two weeks ago',
      'at noon',
      'five o\u2019clock',
      'Mon, the first',
      'this weekend',
    ])
      expect(mayNameATime(t)).toBe(true);
    for (const t of ['who leads project Orchid', 'I love hiking with my dog', 'last one in'])
      expect(mayNameATime(t)).toBe(false);
  });
});
