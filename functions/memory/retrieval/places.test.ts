import { describe, expect, it } from 'vitest';
import { answerTypeTerms } from './answer-type.ts';
import { placeMentions, placeTerms } from './places.ts';

const names = (text: string) => placeMentions(text).map((m) => `${m.name}/${m.country}`);

describe('placeMentions (gazetteer)', () => {
  it('finds cities and countries, longest name first, with or without accents', () => {
    expect(names('Maya: Booked flights to Krakow! Ten whole days.')).toEqual(['Krakow/PL']);
    expect(names('We landed in Kraków at midnight.')).toEqual(['Krakow/PL']);
    expect(names('The penguins near Cape Town were the best bit.')).toEqual(['Cape Town/ZA']);
    expect(names('Two weeks in Japan, then home via Reykjavik.')).toEqual([
      'Japan/JP',
      'Reykjavik/IS',
    ]);
    expect(names("York's walls are lovely in the rain.")).toEqual(['York/GB']);
  });

  it('gives a shared name the country of its largest place', () => {
    expect(names('Pizza in Naples was unreal.')).toEqual(['Naples/IT']);
  });

  it('counts a name that is also a word or a first name only after a place preposition', () => {
    expect(names('Nice weather today.')).toEqual([]);
    expect(names('We are moving to Nice in June.')).toEqual(['Nice/FR']);
    expect(names('Reading the paper on the bus.')).toEqual([]);
    expect(names('Charlotte says hi.')).toEqual([]);
    expect(names('Flights to Charlotte are cheap.')).toEqual(['Charlotte/US']);
    expect(names('Chad came round for dinner.')).toEqual([]);
    expect(names('She works in Chad now.')).toEqual(['Chad/TD']);
    expect(names('Ho ho ho, the office party again.')).toEqual([]);
    expect(names('Moving to the US in May.')).toEqual(['US/US']);
  });

  it('does not read a speaker prefix as a place', () => {
    expect(names('Sydney: the bath is leaking again.')).toEqual([]);
  });

  it('reads a place written in lower case, as people type in chat, but no everyday word', () => {
    // A word the lexicon knows as a place, and no everyday word, counts anywhere.
    expect(names('the temples in kyoto wer unreal')).toEqual(['Kyoto/JP']);
    expect(names('krakow old town at night is so pretty')).toEqual(['Krakow/PL']);
    expect(names('i love peru')).toEqual(['Peru/PE']);
    // Any other name only right after a place preposition, with no article between.
    expect(names('the altitude in cusco wiped me out')).toEqual(['Cusco/PE']);
    expect(names('two weeks in turkey')).toEqual(['Turkey/TR']);
    expect(names('had turkey for dinner')).toEqual([]);
    expect(names('moving to new york in june')).toEqual(['New York/US']);
    // A longer name that does not count is not read in part ("york" of "new york").
    expect(names('new york was wild')).toEqual([]);
    expect(names('a long beach day')).toEqual([]);
    // Everyday words: a verb, a gerund, an adjective, a bath after its article.
    expect(names('we need to split the bill')).toEqual([]);
    expect(names('i was in reading mode')).toEqual([]);
    expect(names('the nice weather')).toEqual([]);
    expect(names('soaking in the bath')).toEqual([]);
  });
});

describe('placeTerms', () => {
  it("adds a city's country names and the kinds of place it is", () => {
    expect(placeTerms('Maya: Booked flights to Krakow!')).toEqual(
      expect.arrayContaining(['city', 'country', 'poland']),
    );
    expect(placeTerms('Flew to the UK last week.')).toEqual(
      expect.arrayContaining(['country', 'united', 'kingdom', 'britain']),
    );
    expect(placeTerms('Maya: Pia says hi.')).toEqual([]);
  });

  it("makes a gazetteer place a place answer, and not a friend's name", () => {
    expect(answerTypeTerms('Maya: Booked flights to Oaxaca!')).toEqual(['qaplace']);
  });
});
