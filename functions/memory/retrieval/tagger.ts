import nlp from 'compromise/two';

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

/** The fields of compromise's `json({ terms: … })` output this module reads. */
interface CompromiseTerm {
  text?: unknown;
  normal?: unknown;
  root?: unknown;
  post?: unknown;
  tags?: unknown;
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
const JSON_OPTIONS = {
  terms: { text: true, normal: true, root: true, tags: true, whitespace: true },
};

/** Sentences of tagged tokens; contractions are expanded by compromise ("I'm" -> "I am"). */
export function tag(text: string): Token[][] {
  const doc = nlp(text);
  doc.compute('root');
  // `root` is a json option the `two` build honours once computed, though its types omit it
  // (hence a variable, not a literal). json() is typed `any`: read it as unknown, check each field.
  const sentences: unknown = doc.json(JSON_OPTIONS);
  if (!Array.isArray(sentences)) return [];
  return sentences.map((sentence: unknown) => {
    const terms: unknown =
      typeof sentence === 'object' && sentence !== null && 'terms' in sentence
        ? sentence.terms
        : [];
    if (!Array.isArray(terms)) return [];
    return terms.flatMap((term: CompromiseTerm, index: number): Token[] => {
      const raw = typeof term.normal === 'string' ? term.normal : '';
      const normal = raw.replace(POSSESSIVE, '').replace(/[^\p{L}\p{N}' -]/gu, '');
      const tags = new Set(Array.isArray(term.tags) ? term.tags.map(String) : []);
      // An expanded contraction ("I'm" -> "I" + "am") yields a term with no text of its own.
      if (normal === '') return [];
      const root = typeof term.root === 'string' && term.root !== '' ? term.root : normal;
      const post = typeof term.post === 'string' ? term.post : ' ';
      return [
        {
          normal,
          root: root.replace(POSSESSIVE, ''),
          // A capitalised noun inside a sentence ("Platform" in "The Platform team") is part of a name.
          cls: classOf(
            tags,
            index > 0 && typeof term.text === 'string' && /^\p{Lu}/u.test(term.text),
          ),
          boundary: /[,.;:!?()"“”]/.test(post),
        },
      ];
    });
  });
}
