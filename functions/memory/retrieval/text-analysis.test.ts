import { stemmer } from 'stemmer';
import { describe, expect, it } from 'vitest';
import { listedLemma } from './lexicon.ts';
import { analyseContent, analyseQuery, analyseQueryWords, speakerOf } from './text-analysis.ts';
import { expandContractions, numberForms, queryWords } from './text.ts';

describe('speaker names', () => {
  it('reads the speaker prefix of a chat turn', () => {
    expect(speakerOf('Caroline: I went to a support group yesterday.')).toEqual({
      name: 'Caroline',
      rest: 'I went to a support group yesterday.',
    });
    expect(speakerOf('Mary Ann Lee: hello there')?.name).toBe('Mary Ann Lee');
  });

  it('does not take a label or a sentence with a colon for a speaker', () => {
    expect(speakerOf('Note: the deploy is on Friday')).toBeNull();
    expect(speakerOf('The plan for today: ship it')).toBeNull();
    expect(speakerOf('Caroline said hi')).toBeNull();
  });

  it('makes the speaker an entity and says their name again for a first-person turn', () => {
    const first = analyseContent('Caroline: I went to the LGBTQ support group yesterday.');
    expect(first.speaker).toBe('Caroline');
    expect(first.entities[0]).toBe('caroline');
    expect(first.terms).toContain('caroline');
    const third = analyseContent('Caroline: The weather was lovely in Lisbon.');
    expect(third.entities).toContain('caroline');
    expect(third.terms).not.toContain('caroline');
  });

  it('names the addressee of a second-person turn', () => {
    const turn = 'Melanie: How are your kids doing at the new school?';
    expect(analyseContent(turn, 'Caroline').terms).toContain('caroline');
    expect(analyseContent(turn, null).terms).not.toContain('caroline');
    expect(
      analyseContent('Melanie: The kids love the new school.', 'Caroline').terms,
    ).not.toContain('caroline');
  });
});

describe('entities from the tagger', () => {
  it.each([
    ['Dana Whitfield leads the platform team in Berlin', ['dana whitfield', 'berlin']],
    ['Maya: Guess who has a Maine Coon kitten called Mochi?', ['maya', 'maine coon', 'mochi']],
    ['ping @alice about "quarterly review" in #ops', ['quarterly review', '@alice', '#ops']],
  ])('finds the names in %s', (text, names) => {
    expect(analyseContent(text).entities).toEqual(expect.arrayContaining(names));
  });

  it('keeps noun phrases and head nouns as lemmas, not sentence-initial verbs or dates', () => {
    const { entities } = analyseContent(
      'Maya: Spent last night at the emergency vet because Mochi swallowed one of my socks on Sunday.',
    );
    expect(entities).toEqual(expect.arrayContaining(['mochi', 'emergency vet', 'vet', 'sock']));
    expect(entities).not.toContain('spent');
    expect(entities).not.toContain('sunday');
    expect(entities).not.toContain('night');
  });

  it('finds nothing in text without names or nouns worth linking', () => {
    expect(analyseContent('no names here at all').entities).toEqual([]);
  });

  it('indexes verb lemmas and the other spelling of small numbers', () => {
    const { terms } = analyseContent('Swam two kilometres before work and bought 3 new shoes.');
    expect(terms).toEqual(expect.arrayContaining(['swim', 'buy', '2', 'three', 'shoe']));
  });
});

describe('query analysis', () => {
  it('expands contractions and strips possessives', () => {
    expect(expandContractions("Melanie's kids didn't go, I'm sure she'd've")).toBe(
      'melanie kids did not go, i am sure she would have',
    );
    expect(queryWords("What are Melanie's kids' names?")).toEqual(['melanie', 'kids', 'names']);
    expect(queryWords("Didn't she say she'll come?")).toEqual(['say', 'come']);
  });

  it('spells small numbers both ways', () => {
    expect(numberForms('nine')).toEqual(['9']);
    expect(numberForms('40')).toEqual(['forty']);
    expect(numberForms('1234')).toEqual([]);
    // Every small number in both spellings, a leading zero read as the number, nothing else.
    expect(numberForms('0')).toEqual(['zero']);
    expect(numberForms('07')).toEqual(['seven']);
    expect(numberForms('twenty')).toEqual(['20']);
    expect(numberForms('90')).toEqual(['ninety']);
    expect(numberForms('ninety')).toEqual(['90']);
    for (const none of ['21', '100', '007', 'hundred', 'twentyone', '', '٣'])
      expect(numberForms(none)).toEqual([]);
    // A caller may change what it gets back without changing the next answer.
    numberForms('nine').push('x');
    expect(numberForms('nine')).toEqual(['9']);
    expect(queryWords('nine degrees')).toEqual(['nine', '9', 'degrees']);
  });

  it('keeps the content words and finds the entities a graph search starts from', () => {
    const q = analyseQuery("When did Caroline go to the support group with Melanie's kids?");
    expect(q.words).toEqual(expect.arrayContaining(['caroline', 'support', 'group', 'kids']));
    expect(q.words).not.toContain('go');
    expect(q.words).not.toContain('s');
    expect(q.entities).toEqual(expect.arrayContaining(['caroline', 'melanie', 'support group']));
  });

  it('meets a past-tense turn on the verb lemma', () => {
    const turn = analyseContent('Maya: I bought a second-hand piano last week.');
    const query = analyseQuery('When did Maya buy the piano?');
    expect(query.words.filter((w) => turn.terms.includes(w))).toContain('buy');
  });
});

describe('query words for bm25, without the tagger', () => {
  it("gives the lexicon's inflected forms their base form, and leaves other words", () => {
    const irregular = {
      went: 'go',
      swam: 'swim',
      taken: 'take',
      people: 'person',
      children: 'child',
    };
    for (const [word, lemma] of Object.entries(irregular)) expect(listedLemma(word)).toBe(lemma);
    // Base forms, and words the lexicon does not list, are left as they are.
    for (const word of ['go', 'roadmap', 'qzxv']) expect(listedLemma(word)).toBeNull();
  });

  it('meets a turn in another tense of an irregular verb on its lemma', () => {
    // The index compares Porter stems (fts.ts): "swam" stems to itself, "swimming" to "swim".
    const words = analyseQueryWords('Who swam in the lake near Maya?');
    expect(words).toEqual(expect.arrayContaining(['swam', 'lake', 'maya', 'swim']));
    expect(stemmer('swam')).not.toBe(stemmer('swimming'));
    expect(words.map((w) => stemmer(w))).toContain(stemmer('swimming'));
  });
});
