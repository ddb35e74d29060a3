import nlp from 'compromise/two';
import { describe, expect, it } from 'vitest';
import {
  baseForm,
  lexiconTags,
  switchOf,
  tagAncestry,
  type Inflection,
} from '../retrieval/lexicon.ts';

// The tagger reads compromise's lexicon, ambiguous words, tag hierarchy and base-form rules from
// the lexicon asset (retrieval/lexicon.ts, retrieval/compromise-inflections.ts) instead of
// importing compromise: every answer must be the one compromise itself gives. Here compromise is
// imported (as the Worker did before) and asked the same questions, word by word.
const model = nlp.model() as {
  one: { lexicon: Record<string, unknown>; tagSet: Record<string, { parents?: unknown }> };
  two: { switches: Record<string, unknown> };
};
const transform = (
  nlp.methods() as {
    two: {
      transform: {
        verb: { toInfinitive: (w: string, m: object, t: string) => string };
        noun: { toSingular: (w: string, m: object) => string };
      };
    };
  }
).two.transform;

const own = (o: object, key: string): unknown =>
  Object.hasOwn(o, key) ? Reflect.get(o, key) : undefined;

function compromiseTags(word: string): string[] {
  const tags = own(model.one.lexicon, word);
  if (typeof tags === 'string') return [tags];
  return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [];
}

function compromiseSwitch(word: string): [string, string] | null {
  const value = own(model.two.switches, word);
  if (typeof value !== 'string') return null;
  const [a, b] = value.split('|');
  return a && b ? [a, b] : null;
}

function compromiseBase(word: string, inflection: Inflection): string {
  const root =
    inflection === 'Plural'
      ? transform.noun.toSingular(word, model)
      : transform.verb.toInfinitive(word, model, inflection);
  return root === '' ? word : root;
}

const INFLECTIONS: Inflection[] = ['Plural', 'PastTense', 'Gerund', 'PresentTense', 'Participle'];
const words = Object.keys(model.one.lexicon);

describe('the lexicon asset against compromise', () => {
  it('gives every listed word, and words it does not list, the same tags and readings', () => {
    const asked = [...words, ...Object.keys(model.two.switches), 'zzyzx', 'constructor', ''];
    for (const word of asked) {
      expect(lexiconTags(word), word).toEqual(compromiseTags(word));
      expect(switchOf(word), word).toEqual(compromiseSwitch(word));
    }
  });

  it('gives every tag the same ancestry', () => {
    for (const tag of [...Object.keys(model.one.tagSet), 'NoSuchTag']) {
      const parents = model.one.tagSet[tag]?.parents;
      expect(tagAncestry(tag), tag).toEqual([tag, ...(Array.isArray(parents) ? parents : [])]);
    }
  });

  it('reduces every listed word and its inflected spellings to the same base forms', () => {
    const forms = new Set<string>(['fall over', 're do', 'over cleaned', 'were', 'being']);
    for (const word of words) {
      forms.add(word);
      if (!/^[a-z]+$/.test(word)) continue;
      for (const end of ['s', 'es', 'ed', 'ing', 'ies', 'ves', 'men', 'ae', 'i', 'd']) {
        forms.add(word + end);
      }
    }
    let differ = 0;
    for (const form of forms) {
      for (const inflection of INFLECTIONS) {
        if (baseForm(form, inflection) !== compromiseBase(form, inflection)) differ += 1;
      }
    }
    expect(forms.size).toBeGreaterThan(100_000);
    expect(differ).toBe(0);
  }, 120_000);
});
