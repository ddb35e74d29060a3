import { describe, expect, it } from 'vitest';
import { softMatchRanked } from './soft-match.ts';

describe('soft matching', () => {
  it('finds the turn whose words mean the question’s words when none of them are the same', () => {
    const ranked = softMatchRanked('Would she enjoy a ceramics workshop?', [
      { seq: 1, content: 'Maya: There is a food festival in the park this weekend.' },
      { seq: 2, content: 'Maya: Glazed my first bowl at the pottery studio, I adore it.' },
      { seq: 3, content: 'Maya: Hmm, tell me more.' },
    ]);
    expect(ranked[0]?.seq).toBe(2);
    const scores = new Map(ranked.map((r) => [r.seq, r.score]));
    expect(scores.get(2) ?? 0).toBeGreaterThan(scores.get(1) ?? 0);
  });

  it('scores an exact word (same stem) fully, and a turn sharing nothing not at all', () => {
    const ranked = softMatchRanked('hiking', [
      { seq: 1, content: 'Went hiking on Sunday' },
      { seq: 2, content: 'zzqx' },
    ]);
    expect(ranked).toEqual([{ seq: 1, score: 1 }]);
  });

  it('returns nothing for a question of stop words only', () => {
    expect(softMatchRanked('what is the', [{ seq: 1, content: 'anything at all' }])).toEqual([]);
  });

  it('scores a turn by its content, not by a cached seq, and the same on every call', () => {
    const question = 'Would she enjoy a ceramics workshop?';
    const pottery = { seq: 7, content: 'Maya: Glazed my first bowl at the pottery studio.' };
    const first = softMatchRanked(question, [pottery]);
    expect(softMatchRanked(question, [pottery])).toEqual(first);
    // The same seq with other words (a reused or rewritten row) is scored afresh.
    const other = softMatchRanked(question, [{ seq: 7, content: 'Maya: Zzqx.' }]);
    expect(other).toEqual([]);
    expect(first[0]?.score ?? 0).toBeGreaterThan(0);
  });
});
