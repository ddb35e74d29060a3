import { describe, expect, it } from 'vitest';
import {
  ANSWER_TYPE_BOOST,
  answerTypeFactor,
  answerTypeTerm,
  answerTypeTerms,
  expectedAnswer,
  questionTypeTerm,
} from './answer-type.ts';

describe('expected answer types', () => {
  it.each([
    ['Where did Caroline move from?', 'place'],
    ['Which country did Maya choose for the big holiday?', 'place'],
    ['What city does Priya live in now?', 'place'],
    ['Who did Tobias meet at the barbecue?', 'person'],
    ['At whose party did Maya first meet the new boyfriend?', 'person'],
    ['Which friend keeps sending Maya photos?', 'person'],
    [
      'What did Maya do for a living before the career change, and what is the new position?',
      'job',
    ],
    ['What line of work was Tobias in at the start of these chats?', 'job'],
    ['Which job did Priya take after the course?', 'job'],
    ['When did Pia become a parent?', 'date'],
    ['When did Maya start the new job?', 'date'],
    ['What year did Tobias move to Leeds?', 'date'],
    ['What does Maya use to get around these days?', null],
  ])('%s -> %s', (question, type) => {
    expect(expectedAnswer(question)).toBe(type);
  });

  it('scales a turn that states a time for a question asking when', () => {
    const boosted = 1 + ANSWER_TYPE_BOOST;
    expect(answerTypeFactor('date', 'Maya: Pia had the baby last Friday!')).toBe(boosted);
    expect(answerTypeFactor('date', 'Tobias: Defended the thesis on 3 March.')).toBe(boosted);
    expect(answerTypeFactor('date', 'Maya: Pia had the baby! A little boy called Arlo.')).toBe(1);
    expect(answerTypeFactor('date', 'Tobias: I need a big food shop but cannot face it.')).toBe(1);
    expect(answerTypeFactor('date', 'June: Hmm, tell me more.')).toBe(1);
    // Not an index term of its own: `qadate` (time-terms.ts) already is.
    expect(questionTypeTerm('date')).toBeNull();
  });

  it('scales a turn that names a place or a person, not for its speaker prefix', () => {
    const boosted = 1 + ANSWER_TYPE_BOOST;
    expect(answerTypeFactor('place', 'Maya: Booked flights to Krakow! Ten whole days.')).toBe(
      boosted,
    );
    expect(answerTypeFactor('place', 'Maya: Saoirse’s holiday photos are so good.')).toBe(1);
    // A name the word list lacks, inside a sentence, is taken for a person's.
    expect(answerTypeFactor('person', 'Maya: We got talking at Emeka’s barbecue.')).toBe(boosted);
    expect(answerTypeFactor('person', 'Tobias: Lunch was a sad sandwich at the desk.')).toBe(1);
    // The sentence's first word is capitalised anyway; the speaker's name is every turn's.
    expect(answerTypeFactor('person', 'Caroline: Lunch was great.')).toBe(1);
    expect(answerTypeFactor(null, 'Maya: Booked flights to Krakow!')).toBe(1);
  });
});

describe('a job as the answer type', () => {
  const boosted = 1 + ANSWER_TYPE_BOOST;

  it('is carried by an occupation, or by what someone is or joins as', () => {
    expect(
      answerTypeFactor('job', 'Priya: Checked prescriptions all day, the pharmacist is off.'),
    ).toBe(boosted);
    expect(
      answerTypeFactor('job', 'Maya: I am joining Paper Lantern Books as a bookshop manager!'),
    ).toBe(boosted);
    expect(answerTypeFactor('job', 'Jonas: I’m a physio now, five backs a day.')).toBe(boosted);
  });

  it('is not carried by a relation compromise files with the roles', () => {
    expect(answerTypeFactor('job', 'Maya: My friend and my mum came to the party.')).toBe(1);
    expect(answerTypeFactor('job', 'Tobias: The guests brought the baby along.')).toBe(1);
  });

  it('is no index term, so bm25 adds none for it', () => {
    expect(
      answerTypeTerms('Maya: I am joining Paper Lantern Books as a bookshop manager!'),
    ).not.toContain('qajob');
    expect(questionTypeTerm('job')).toBeNull();
    expect(questionTypeTerm('place')).toBe('qaplace');
    expect(questionTypeTerm(null)).toBeNull();
  });
});

describe('answer types as index terms', () => {
  it('lists the types a turn carries as terms, the speaker prefix aside', () => {
    expect(answerTypeTerms('Maya: Booked flights to Krakow with Wren!').sort()).toEqual([
      'qaperson',
      'qaplace',
    ]);
    expect(answerTypeTerms('Caroline: Lunch was great.')).toEqual([]);
    expect(answerTypeTerm('place')).toBe('qaplace');
  });
});
