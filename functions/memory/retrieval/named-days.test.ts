import { describe, expect, it } from 'vitest';
import { namedDays, withNamedDays } from './named-days.ts';

describe('named days', () => {
  it('keeps the day tokens of a question, not its months or years', () => {
    expect(namedDays(['yr2024', 'mo12', 'ym202412', 'dy20241214', 'qawhen'])).toEqual([
      'dy20241214',
    ]);
    expect(namedDays(['yr2024', 'ym202412'])).toEqual([]);
  });

  it("lifts the day's turns by half the list's best score, keeping their own order", () => {
    const ranked = [
      { seq: 1, score: 1 },
      { seq: 2, score: 0.8 },
      { seq: 3, score: 0.5 },
      { seq: 4, score: 0.2 },
    ];
    // 3: 0.5 + 0.5 ties the best (the lower seq first); 4: 0.2 + 0.5 passes nothing but 3.
    expect(withNamedDays(ranked, new Set([4, 3]))).toEqual([
      { seq: 1, score: 1 },
      { seq: 3, score: 1 },
      { seq: 2, score: 0.8 },
      { seq: 4, score: 0.7 },
    ]);
    // A turn of the day that no arm listed joins with the lift alone (0.5; ties: lower seq).
    expect(withNamedDays(ranked, new Set([2, 9])).map((r) => r.seq)).toEqual([2, 1, 3, 9, 4]);
  });

  it('changes nothing when no turn is of the day', () => {
    const ranked = [
      { seq: 1, score: 1 },
      { seq: 2, score: 0.8 },
    ];
    expect(withNamedDays(ranked, new Set())).toEqual(ranked);
  });
});
