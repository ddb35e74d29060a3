import { describe, expect, it } from 'vitest';
import { dateOrderOf, numericDates } from './numeric-dates.ts';
import { queryPeriods } from './time-terms.ts';

const day = (year: number, month: number, d: number) => ({ year, month, day: d });

describe('numeric dates', () => {
  it('reads a date whose parts decide the order one way only', () => {
    expect(numericDates('on 25.12.2023?')).toEqual([
      { index: 3, text: '25.12.2023', readings: [day(2023, 12, 25)] },
    ]);
    expect(numericDates('on 12/25/2023')[0]?.readings).toEqual([day(2023, 12, 25)]);
    expect(numericDates('on 13-9-23')[0]?.readings).toEqual([day(2023, 9, 13)]);
  });

  it('reads an ambiguous date in the given order, or both ways without one', () => {
    expect(numericDates('03.02.2024', 'dmy')[0]?.readings).toEqual([day(2024, 2, 3)]);
    expect(numericDates('03.02.2024', 'mdy')[0]?.readings).toEqual([day(2024, 3, 2)]);
    expect(numericDates('3/2/24')[0]?.readings).toEqual([day(2024, 2, 3), day(2024, 3, 2)]);
    // The same day either way: one reading.
    expect(numericDates('04/04/2024')[0]?.readings).toEqual([day(2024, 4, 4)]);
  });

  it('leaves what is not a day: versions, scores, impossible days, long numbers', () => {
    expect(numericDates('version 1.2.3 of the app')).toEqual([]);
    expect(numericDates('she rated it 4/5')).toEqual([]);
    expect(numericDates('31.02.2024 or 13/13/2024')).toEqual([]);
    expect(numericDates('call 0161.22.33.44')).toEqual([]);
    expect(numericDates('29.02.2023')).toEqual([]);
    expect(numericDates('29.02.2024')[0]?.readings).toEqual([day(2024, 2, 29)]);
  });

  it('learns a Context’s order from the dates only one order can read', () => {
    expect(dateOrderOf(['Are you free on 23/03?', 'see you 4/5'])).toBe('dmy');
    expect(dateOrderOf(['party is on 4/27!', 'rent due 5/15', 'back 13/4'])).toBe('mdy');
    expect(dateOrderOf(['3/4 of the cake', 'ran 13.5 km'])).toBeNull();
    expect(dateOrderOf(['on 13.05.2024'])).toBe('dmy');
    expect(dateOrderOf([])).toBeNull();
  });
});

describe('query periods with dates in every common form', () => {
  const asOf = new Date(Date.UTC(2026, 0, 10));

  it('reads day-first numerals that chrono-node reads month first or as tonight', () => {
    const p = queryPeriods('What did Sam watch on the night of 03.02.2024?', asOf, {
      order: 'dmy',
    });
    expect(p.terms).toEqual(['yr2024', 'mo02', 'ym202402', 'dy20240203']);
    // The digits leave bm25's words: a turn does not repeat them.
    expect(p.lexical).toBe('What did Sam watch on the night ?');
    expect(queryPeriods('What did Sam watch on 25.12.2023?', asOf).terms).toContain('dy20231225');
  });

  it('gives both readings of an ambiguous day without the Context’s order', () => {
    const terms = queryPeriods('Where did Dan eat out on 3/2/2024?', asOf).terms;
    expect(terms).toContain('dy20240203');
    expect(terms).toContain('dy20240302');
    expect(
      queryPeriods('Where did Dan eat out on 3/2/2024?', asOf, { order: 'mdy' }).terms,
    ).toEqual(['yr2024', 'mo03', 'ym202403', 'dy20240302']);
  });

  it('reads ISO dates and month names as before, and dates a day without a year by the Context', () => {
    expect(queryPeriods('What did Jo buy on 2024-02-03?', asOf).terms).toContain('dy20240203');
    expect(queryPeriods('What did Jo buy on Feb 3, 2024?', asOf).terms).toContain('dy20240203');
    expect(queryPeriods('What did Jo buy on the 3rd of February?', asOf).terms).toEqual(['mo02']);
    const latest = new Date(Date.UTC(2024, 2, 1));
    expect(
      queryPeriods('What did Jo buy on the 3rd of February?', asOf, { latest }).terms,
    ).toContain('dy20240203');
    // After the Context's latest day in its year: the year before.
    expect(queryPeriods('What did Jo buy on September 20th?', asOf, { latest }).terms).toContain(
      'dy20230920',
    );
  });
});
