import { describe, expect, it } from 'vitest';
import { aliasCandidates, namesCalled, withAliases } from './aliases.ts';

const calls = (text: string) => namesCalled(text).map((c) => `${c.alias}:${c.callee}`);

describe('names a chat turn calls people by', () => {
  it('reads vocatives after greetings and words of address', () => {
    expect(calls('Hey Sam')).toEqual(['sam:addressee']);
    expect(calls('Morning Sammy!')).toEqual(['sammy:addressee']);
    expect(calls('Night Gaz x')).toEqual(['gaz:addressee']);
    expect(calls('Going to sleep, love you Peggy')).toEqual(['peggy:addressee']);
    expect(calls('Good morning Shiv, how did you sleep?')).toEqual(['shiv:addressee']);
    expect(calls('Proud of you Becks 🎉')).toEqual(['becks:addressee']);
  });

  it('reads a question ending on a name, and a turn opening on one', () => {
    expect(calls('How was your weekend Shiv?')).toEqual(['shiv:addressee']);
    expect(calls('How are things Jo?')).toEqual(['jo:addressee']);
    // A common word (a drum kit) is a name here only after a greeting: "Hey Kit".
    expect(calls('Where is the kit?')).toEqual([]);
    expect(calls('Sam!!!')).toEqual(['sam:addressee']);
    expect(calls('Sasha, did you get the tickets?')).toEqual(['sasha:addressee']);
    expect(calls('Teddy you legend')).toEqual(['teddy:addressee']);
  });

  it('reads self-introductions as the speaker', () => {
    expect(calls("Hi, I'm Becks, Jo's flatmate")).toEqual(['becks:speaker']);
    expect(calls('It’s Shiv here, new number')).toEqual(['shiv:speaker']);
    expect(calls('Call me Becks.')).toEqual(['becks:speaker']);
  });

  it('does not take places, objects, known words or chat texture for names', () => {
    expect(calls('Did you see Paris?')).toEqual([]);
    expect(calls('I went to Paris')).toEqual([]);
    expect(calls('Glamorous!')).toEqual([]);
    expect(calls('Finally!')).toEqual([]);
    expect(calls('hey yesss')).toEqual([]);
    expect(calls('noo way')).toEqual([]);
    expect(calls('Look!! [image: a temple with red gates surrounded by trees]')).toEqual([]);
    expect(calls('thanks lol')).toEqual([]);
    expect(calls('morning coffee')).toEqual([]);
    // A common word ending a question, a nationality, a pet shown in a photo.
    expect(calls('What made you decide to learn Spanish?')).toEqual([]);
    expect(calls("I'm Spanish, actually")).toEqual([]);
    expect(calls('This is Oscar, our new puppy')).toEqual([]);
    expect(calls("It's Tuesday")).toEqual([]);
  });

  it('reads a lower-case nickname no lexicon knows or only as a rare word, not a common word', () => {
    expect(calls('morning nastya')).toEqual(['nastya:addressee']);
    expect(calls('night sam x')).toEqual(['sam:addressee']);
    // "shiv" is a rare word (27,348th of the vocabulary); "coffee" and "kit" are common ones.
    expect(calls('morning shiv')).toEqual(['shiv:addressee']);
    expect(calls('morning coffee')).toEqual([]);
    expect(calls('night kit x')).toEqual([]);
    // A turn's first word alone must be unknown: rare words open turns too.
    expect(calls('shiv!!!')).toEqual([]);
    expect(calls('Glamorous!')).toEqual([]);
  });

  it('reads a first name ending in a doubled letter as a name, not a stretched word', () => {
    expect(calls('Hey Nell')).toEqual(['nell:addressee']);
    expect(calls('night nell x')).toEqual(['nell:addressee']);
    expect(calls('love you Ross')).toEqual(['ross:addressee']);
    expect(calls('hey hiii')).toEqual([]);
    expect(calls('night noo')).toEqual([]);
  });
});

describe('aliases in questions', () => {
  const resolved = new Map([
    ['sam', 'Samantha'],
    ['kit', 'Katherine'],
  ]);

  it('writes a resolved alias as its label, keeping the possessive', () => {
    expect(withAliases('What sports does Sam play?', resolved)).toBe(
      'What sports does Samantha play?',
    );
    expect(withAliases("What is Sam's favourite food?", resolved)).toBe(
      "What is Samantha's favourite food?",
    );
  });

  it('leaves a lower-case word of a capitalised question alone (a drum kit)', () => {
    expect(withAliases('What kit does Gaz use?', resolved)).toBe('What kit does Gaz use?');
    expect(withAliases('what did kit cook on friday', resolved)).toBe(
      'what did Katherine cook on friday',
    );
  });

  it('offers the content words of a question as candidates', () => {
    expect(aliasCandidates("What sports does Sam's brother play?")).toEqual([
      'sports',
      'sam',
      'brother',
      'play',
    ]);
  });
});
