import { describe, expect, it } from 'vitest';
import { tag, type Token } from './tagger.ts';

/** "word:class" for each token, or "word:class:root" where the root differs. */
function shown(text: string): string[][] {
  return tag(text).map((sentence) =>
    sentence.map((t: Token) =>
      t.root === t.normal ? `${t.normal}:${t.cls}` : `${t.normal}:${t.cls}:${t.root}`,
    ),
  );
}

describe('the table-driven tagger', () => {
  it('tells names, nouns, verbs, pronouns and numbers apart, with lemmas', () => {
    expect(shown('Maya adopted two beagle puppies in Cardiff.')).toEqual([
      [
        'maya:proper',
        'adopted:verb:adopt',
        'two:number',
        'beagle:noun',
        'puppies:noun:puppy',
        'in:other',
        'cardiff:proper',
      ],
    ]);
    // Irregular forms come from compromise's lexicon and its inflection rules.
    expect(shown('We went swimming and the children swam.').flat()).toEqual(
      expect.arrayContaining(['went:verb:go', 'children:noun:child', 'swam:verb:swim']),
    );
  });

  it('expands contractions and reads a possessive as its owner', () => {
    expect(shown("I'm sure Maya's cat didn't do it")).toEqual([
      [
        'i:pronoun',
        'am:verb:be',
        'sure:other',
        'maya:proper',
        'cat:noun',
        'did:verb:do',
        'not:other',
        'do:verb',
        'it:pronoun',
      ],
    ]);
    // "it's" is "it is"; a common noun's possessive is no noun of the run it would join.
    expect(shown("It's the dog's bowl").flat()).toEqual([
      'it:pronoun',
      'is:verb:be',
      'the:other',
      'dog:other',
      'bowl:noun',
    ]);
  });

  it('reads an ambiguous word by its left neighbour', () => {
    expect(shown('the support group').flat()).toContain('support:noun');
    expect(shown('I support the group').flat()).toContain('support:verb');
    expect(shown('we need to book a table').flat()).toContain('book:verb');
    expect(shown('a good book').flat()).toContain('book:noun');
  });

  it('takes a capital inside a sentence as a name, not at its start', () => {
    const [first, second] = tag('Platform work is slow. The Platform team agrees.');
    expect(first?.[0]).toMatchObject({ normal: 'platform', cls: 'noun' });
    expect(second?.[1]).toMatchObject({ normal: 'platform', cls: 'proper' });
  });

  it('marks the words a clause ends on', () => {
    const words = tag('Cats, dogs and rabbits; all welcome').flat();
    expect(words.filter((t) => t.boundary).map((t) => t.normal)).toEqual(['cats', 'rabbits']);
  });

  it('keeps chat interjections, place adverbs and unlisted adjectives out of the nouns', () => {
    const classes = Object.fromEntries(
      tag('Hmm, here it is: a gorgeous, careless fox').flatMap((s) =>
        s.map((t) => [t.normal, t.cls]),
      ),
    );
    expect(classes).toMatchObject({
      hmm: 'other',
      here: 'other',
      gorgeous: 'other',
      careless: 'other',
      fox: 'noun',
    });
  });

  it('tags a word the same the first time and every time after (its facts are kept)', () => {
    const text = 'Hmm, the book club read my book. I book the table; she books it.';
    const first = shown(text);
    expect(shown(text)).toEqual(first);
    // The same word read by its neighbours each time: a noun after "the", a verb after "I".
    expect(first).toEqual([
      ['hmm:other', 'the:other', 'book:noun', 'club:verb', 'read:verb', 'my:other', 'book:noun'],
      [
        'i:pronoun',
        'book:verb',
        'the:other',
        'table:noun',
        'she:pronoun',
        'books:noun:book',
        'it:pronoun',
      ],
    ]);
    // A token longer than any word is tagged like any unlisted word, every time.
    const long = 'x'.repeat(60);
    expect(shown(`The ${long} arrived.`)).toEqual(shown(`The ${long} arrived.`));
    expect(shown(`The ${long} arrived.`).flat()).toContain(`${long}:noun`);
  });

  it('reads the word of a handle or tag as a name', () => {
    expect(shown('I asked @alice in #ops').flat()).toEqual([
      'i:pronoun',
      'asked:verb:ask',
      'alice:proper',
      'in:other',
      'ops:proper',
    ]);
  });
});
