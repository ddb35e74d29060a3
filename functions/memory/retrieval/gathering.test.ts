import { describe, expect, it } from 'vitest';
import { askedKind, gatheredKind, spreadsOverSessions, spreadSessions } from './gathering.ts';

/** Whether a question asks for every item of a category. */
const asksToGather = (question: string): boolean => gatheredKind(question) !== null;

describe('asksToGather', () => {
  it('reads "what/which X" questions about a category', () => {
    expect(asksToGather('What sports does Sam play?')).toBe(true);
    expect(asksToGather('Which countries has Sasha visited?')).toBe(true);
    expect(asksToGather('What kind of music does Jo like?')).toBe(true);
    expect(asksToGather('What are Jo’s favourite films?')).toBe(true);
    expect(asksToGather('What food does Jo like?')).toBe(true);
  });

  it('leaves questions for one value or without a category', () => {
    expect(asksToGather('What time does the train leave?')).toBe(false);
    expect(asksToGather('What car does Chi drive?')).toBe(false);
    expect(asksToGather('What sort of person is Jo’s new boyfriend?')).toBe(false);
    expect(asksToGather('What class is Jo taking?')).toBe(false);
    expect(asksToGather('What are you doing tonight?')).toBe(false);
    expect(asksToGather('What does Jo do for a living?')).toBe(false);
    expect(asksToGather('Where did Sam go in May?')).toBe(false);
  });
});

describe('spreadsOverSessions', () => {
  it('spreads a question that gathers a kind told over weeks', () => {
    expect(spreadsOverSessions('What sports does Sam play?', false)).toBe(true);
    expect(spreadsOverSessions('What kinds of music does Jo like?', false)).toBe(true);
    expect(spreadsOverSessions('Which countries has Sasha visited?', false)).toBe(true);
  });

  it('not one whose answer is told once: an occasion, a day, one sort', () => {
    expect(spreadsOverSessions('What emotions did John feel during the party?', false)).toBe(false);
    expect(spreadsOverSessions('What games did they play at the picnic?', false)).toBe(false);
    expect(spreadsOverSessions('What plans does Jon have after the event?', false)).toBe(false);
    expect(spreadsOverSessions('What sports did Sam try last summer?', false)).toBe(false);
    expect(spreadsOverSessions('What sports did Sam watch on 12.03.2024?', true)).toBe(false);
    expect(spreadsOverSessions('What kind of music does Jo like?', false)).toBe(false);
    // Still a gathering question: its kind's members widen the search.
    expect(gatheredKind('What kind of music does Jo like?')).toBe('music');
    expect(spreadsOverSessions('What time does the train leave?', false)).toBe(false);
  });
});

describe('spreadSessions', () => {
  const sessions: Record<number, string | null> = {
    1: 'a',
    2: 'a',
    3: 'a',
    4: 'b',
    5: null,
    6: 'a',
    7: 'c',
  };
  const sessionOf = (seq: number) => sessions[seq] ?? null;
  const list = [1, 2, 3, 4, 5, 6, 7].map((seq) => ({ seq }));

  it('holds at most `cap` items of a session in the first k, the rest after in order', () => {
    expect(spreadSessions(list, 5, sessionOf, 2).map((r) => r.seq)).toEqual([1, 2, 4, 5, 7, 3, 6]);
  });

  it('changes nothing when no session is over the cap', () => {
    expect(spreadSessions(list, 7, sessionOf, 4).map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});

describe('askedKind', () => {
  it('names the category a "what/which X" question asks for', () => {
    expect(askedKind('What sports does Sam play?')).toBe('sports');
    expect(askedKind('Which countries has Sasha visited?')).toBe('countries');
    expect(askedKind('What kind of music does Jo like?')).toBe('music');
    expect(askedKind('What car does Chi drive?')).toBe('car');
    expect(askedKind('What are Jo’s favourite films?')).toBe('films');
  });

  it('is null when no category is named', () => {
    expect(askedKind('What are you doing tonight?')).toBeNull();
    expect(askedKind('What does Jo do for a living?')).toBeNull();
    expect(askedKind('Where did Sam go in May?')).toBeNull();
  });
});
