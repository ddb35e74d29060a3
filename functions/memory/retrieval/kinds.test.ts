import { describe, expect, it } from 'vitest';
import { membersOf } from './kinds.ts';

describe('membersOf', () => {
  it('lists the nouns WordNet files under the kind a question names', () => {
    expect(membersOf('sports')).toEqual(
      expect.arrayContaining(['football', 'tennis', 'badminton', 'judo', 'netball']),
    );
    expect(membersOf('sport')).toEqual(membersOf('sports'));
    expect(membersOf('countries')).toEqual(expect.arrayContaining(['france', 'spain', 'italy']));
    expect(membersOf('Dishes')).toEqual(expect.arrayContaining(['soup', 'pizza', 'curry']));
    expect(membersOf('drinks')).toEqual(expect.arrayContaining(['coffee', 'tea', 'beer']));
  });

  it('keeps the nearest members first and leaves room for the question’s own words', () => {
    const sports = membersOf('sports');
    expect(sports.length).toBeGreaterThan(20);
    expect(sports.length).toBeLessThanOrEqual(36);
    expect(sports.indexOf('football')).toBeLessThan(sports.indexOf('netball'));
  });

  it('is empty for a word that is no kind', () => {
    expect(membersOf('quickly')).toEqual([]);
    expect(membersOf('zzzz')).toEqual([]);
    expect(membersOf('')).toEqual([]);
  });
});

describe('members are only ever nouns', () => {
  it('leaves out words chat means as a pronoun, a verb or a name', () => {
    expect(membersOf('countries')).not.toContain('us');
    expect(membersOf('instruments')).not.toContain('watch');
    expect(membersOf('cities')).not.toContain('gary');
  });
});
