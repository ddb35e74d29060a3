import nlp from 'compromise/two';
import type { Term } from 'compromise/misc';

/**
 * Part-of-speech tagging with compromise (its `two` build: lexicon, tagger and lemmas, without the
 * phrase-level API of `three`, which costs another 18 KB gzipped and about twice the CPU per
 * turn). Picked over wink-nlp by measured recall and bundle size: see docs/retrieval.md.
 */

// compromise runs its hooks in order on every nlp() call. The last one, the post-tagger, applies some
// hundreds of match patterns that correct the lexicon's and suffix rules' tags ("part-time" an
// adjective, "living" a noun). It took about three quarters of the tagging time (1.6 ms -> 0.38 ms a
// conversational turn), and without it recall on the dev split and on LoCoMo did not drop
// (docs/retrieval.md, "Twelfth round"). `hooks()` is the live list, so this removes it for every
// nlp() call in the Worker (this module's; lexicon.ts only reads compromise's word list).
const hooks = nlp.hooks();
const POST_TAGGER = hooks.indexOf('postTagger');
if (POST_TAGGER >= 0) hooks.splice(POST_TAGGER, 1);

export type TokenClass = 'proper' | 'noun' | 'verb' | 'pronoun' | 'number' | 'other';

export interface Token {
  /** Lower-cased surface form without punctuation or a possessive `'s`. */
  normal: string;
  /** Infinitive of a verb, singular of a plural noun; `normal` when the word is its own root. */
  root: string;
  cls: TokenClass;
  /** The word ends a sentence or a clause (punctuation after it), so a noun run stops there. */
  boundary: boolean;
}

function classOf(tags: Set<string>, capitalised: boolean): TokenClass {
  if (tags.has('Pronoun')) return 'pronoun';
  // Weekdays, months and "last night" link every turn that says them: not names, not topics.
  if (tags.has('Date') || tags.has('Month') || tags.has('WeekDay')) return 'other';
  if (tags.has('Value') || tags.has('Cardinal') || tags.has('Ordinal')) return 'number';
  if (tags.has('ProperNoun') || tags.has('Person') || tags.has('Place')) return 'proper';
  if (tags.has('Organization')) return 'proper';
  if (tags.has('Verb')) return 'verb';
  if (tags.has('Noun') && !tags.has('Possessive')) return capitalised ? 'proper' : 'noun';
  return 'other';
}

const POSSESSIVE = /['’]s$/;

/** A term's lemma, which `compute('root')` sets; compromise's types leave it out. */
function rootOf(term: Term): string {
  const root: unknown = Reflect.get(term, 'root');
  return typeof root === 'string' && root !== '' ? root : '';
}

/**
 * Sentences of tagged tokens; contractions are expanded by compromise ("I'm" -> "I am"). Reads the
 * document's own terms (`doc.docs`) rather than `json()`, which copies every term into a new
 * object first: the same tokens for all 16,470 turns and questions of the recall set and LoCoMo,
 * and 5-11 % less tagging time in Node (docs/hot-path.md, eleventh round).
 */
export function tag(text: string): Token[][] {
  const doc = nlp(text);
  doc.compute('root');
  return doc.docs.map((terms) =>
    terms.flatMap((term, index): Token[] => {
      const normal = term.normal.replace(POSSESSIVE, '').replace(/[^\p{L}\p{N}' -]/gu, '');
      // An expanded contraction ("I'm" -> "I" + "am") yields a term with no text of its own.
      if (normal === '') return [];
      const tags = term.tags ?? new Set<string>();
      const root = rootOf(term) || normal;
      return [
        {
          normal,
          root: root.replace(POSSESSIVE, ''),
          // A capitalised noun inside a sentence ("Platform" in "The Platform team") is part of a name.
          cls: classOf(tags, index > 0 && /^\p{Lu}/u.test(term.text)),
          boundary: /[,.;:!?()"“”]/.test(term.post),
        },
      ];
    }),
  );
}
