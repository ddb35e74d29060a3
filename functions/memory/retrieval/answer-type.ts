import { boundedMemo, MEMO_KEY_CHARS } from './bounded-memo.ts';
import { lexiconTags } from './lexicon.ts';
import { placeMentions, PLACE_TAGS, type PlaceMention } from './places.ts';
import { speakerOf } from './text-analysis.ts';
import { asksWhen, statesATime } from './time-terms.ts';

/**
 * Expected answer types, the oldest idea in question answering (the TREC QA systems of Moldovan
 * et al. and Harabagiu et al.): "where…", "which city…" is answered by a passage that names a
 * place; "who…", "whose…", "which friend…" by one that names a person. A question's words rarely
 * say the answer ("Which country did Maya choose for the big holiday?" / "Booked flights to
 * Krakow!"), but its type is in its first words, and the turns that can answer it carry a word of
 * that type. Fused modes scale a turn that does by `1 + ANSWER_TYPE_BOOST`.
 *
 * Chosen on the dev split of the recall benchmark, then checked once against LoCoMo (the outside
 * check; the rule of docs/retrieval.md: the best dev setting that keeps LoCoMo at or above its
 * figure). Recall@10 of hybrid, dev / LoCoMo: without 0.639 / 0.643; place and person at 0.6
 * 0.665 / 0.644 (kept); at 1.0 0.669 / 0.642 (LoCoMo falls); place only 0.646 / 0.644; person only
 * 0.657 / 0.643. Numbers ("how many…") added nothing on dev and cost LoCoMo (all three types at
 * 0.4: 0.642), so they are not a type here.
 *
 * A job ("what did she do for a living…", "what line of work…", "what is the new position?") is a
 * type since the sixth round: a turn carries it when it names an occupation compromise knows
 * ("manager", "pharmacist"; not a relation such as "friend" or "mum", which it files with them) or
 * says what someone is or joins as ("joining Paper Lantern Books as a bookshop manager"). Dev
 * hybrid 0.721 -> 0.727 (multi-hop 0.638 -> 0.665, open-domain 0.301 -> 0.306; occupation words
 * alone 0.725, the "as a" pattern alone 0.726); LoCoMo, the outside check, 0.651 both ways. It acts
 * only as the fused modes' factor, not as an index term (`answerTypeTerms`), so no stored item
 * needs a new term.
 *
 * A date ("When did…", "What year…", "How long ago…": time-terms.ts `asksWhen`) is a type since the
 * tenth round: a turn carries it when it states a time (time-terms.ts `statesATime`, the test that
 * gives an item its `qadate` index term). The term reached the fused modes only through their bm25
 * arm, one arm of six, so a when-question's small talk ("…cannot face it" for "When did Maya face
 * the viva?") still outranked the turn that said when. Dev hybrid_graph 0.506 -> 0.519 (temporal
 * 0.695 -> 0.736; boost 0.3 0.516, 1.0 0.518), hybrid 0.496 -> 0.515; LoCoMo, the outside check,
 * 0.715 -> 0.722 and 0.714 -> 0.721 (temporal 0.805 -> 0.839). `bm25` mode is unchanged: it already
 * queries `qadate`.
 */
export type AnswerType = 'place' | 'person' | 'job' | 'date';

export const ANSWER_TYPE_BOOST = 0.6;

const PLACE_QUESTION =
  /^\s*where\b|\b(which|what) (city|country|town|village|place|neighbou?rhood)\b/i;
const PERSON_QUESTION =
  /^\s*(who|whom)\b|\bwhose\b|\b(which|what) (friend|person|colleague|relative)\b/i;

const JOB_QUESTION =
  /\b(for a living|line of work|(which|what) (job|position|role|profession|career|occupation)|new (job|position|role)|work as)\b/i;

/**
 * The type of answer a question asks for, when its words say so. A question asking when wants a
 * date even when it also names a place or a job ("When did Maya start the new job?").
 */
export function expectedAnswer(question: string): AnswerType | null {
  if (asksWhen(question)) return 'date';
  if (PLACE_QUESTION.test(question)) return 'place';
  if (PERSON_QUESTION.test(question)) return 'person';
  if (JOB_QUESTION.test(question)) return 'job';
  return null;
}

/** The types stored as index terms; `job` is not (see `AnswerType`). */
const INDEXED: ReadonlySet<AnswerType> = new Set(['place', 'person']);

/** Words compromise tags as roles (`Actor`) that name a relation or people at large, not a job. */
const RELATIONS = new Set([
  'baby',
  'people',
  'guests',
  'friend',
  'mum',
  'mom',
  'dad',
  'mother',
  'father',
  'sister',
  'brother',
  'girlfriend',
  'boyfriend',
  'partner',
  'wife',
  'husband',
  'neighbour',
  'neighbor',
  'boss',
  'guest',
]);

/** "…as a bookshop manager", "I am a nurse": what someone is or joins as. */
const ROLE_PHRASE = /\b(as|am|I'm|I\u2019m) an? \p{L}+/u;

const PERSON_TAGS = new Set(['FirstName', 'MaleName', 'FemaleName', 'Person', 'LastName']);

/**
 * The answer types a turn carries: a word compromise lists as a place, or as a name; or a
 * capitalised word inside a sentence that the list does not know (most friends' names: "Wren",
 * "Emeka"). The speaker's prefix does not count: every turn of a conversation has one.
 */
function typesOf(
  content: string,
  places: readonly PlaceMention[] = placeMentions(content),
): ReadonlySet<AnswerType> {
  const text = speakerOf(content)?.rest ?? content;
  const out = new Set<AnswerType>();
  // Places the gazetteer knows (places.ts) are places, and their words are not friends' names.
  if (places.length > 0) out.add('place');
  const placeWords = new Set(places.flatMap((p) => p.name.split(' ')));
  let sentenceStart = true;
  for (const token of text.match(/[\p{L}\p{N}]+|[.!?]/gu) ?? []) {
    if (token === '.' || token === '!' || token === '?') {
      sentenceStart = true;
      continue;
    }
    const word = token.toLowerCase();
    const tags = lexiconTags(word);
    if (tags.includes('Actor') && !RELATIONS.has(word)) out.add('job');
    if (tags.some((t) => PLACE_TAGS.has(t))) out.add('place');
    if (tags.some((t) => PERSON_TAGS.has(t))) out.add('person');
    else if (
      !sentenceStart &&
      tags.length === 0 &&
      /^\p{Lu}/u.test(token) &&
      !placeWords.has(token)
    )
      out.add('person');
    sentenceStart = false;
  }
  if (ROLE_PHRASE.test(text)) out.add('job');
  return out;
}

/** Turns come back query after query; their types are read once (4,096 turns, oldest out). */
const typesOfTurn = boundedMemo(4_096, typesOf, MEMO_KEY_CHARS);

/** The factor a turn's fused score is scaled by for a question expecting `want`. */
export function answerTypeFactor(want: AnswerType | null, content: string): number {
  if (want === null) return 1;
  // A speaker called June or May is not a time: the prefix is left out, as for the other types.
  const has =
    want === 'date'
      ? statesATime(speakerOf(content)?.rest ?? content)
      : typesOfTurn(content).has(want);
  return has ? 1 + ANSWER_TYPE_BOOST : 1;
}

/**
 * Index terms for the answer types an item carries (`qaplace`, `qaperson`), stored in its FTS
 * `terms` beside `qadate` (time-terms.ts): predictive annotation (Prager et al., SIGIR 2000).
 * `bm25` mode adds the question's expected type as one more term (`answerTypeTerm`), so a turn
 * that can answer "Which city…" gains that term's bm25 weight and the ranking stays lexical. The
 * fused modes do not add it: their answer type acts once, as `answerTypeFactor`. Dev, bm25
 * recall@10 0.349 -> 0.360 (single-hop 0.470 -> 0.506, multi-hop 0.188 -> 0.205); LoCoMo (outside
 * check) 0.631 -> 0.632; queried in the fused modes' bm25 arm as well, LoCoMo hybrid fell 0.648 ->
 * 0.646, so it is not.
 */
export function answerTypeTerms(
  content: string,
  places: readonly PlaceMention[] = placeMentions(content),
): string[] {
  return [...typesOf(content, places)].filter((t) => INDEXED.has(t)).map(answerTypeTerm);
}

export function answerTypeTerm(type: AnswerType): string {
  return `qa${type}`;
}

/** The index term `bm25` mode adds for a question expecting `want`, when the type is indexed. */
export function questionTypeTerm(want: AnswerType | null): string | null {
  return want !== null && INDEXED.has(want) ? answerTypeTerm(want) : null;
}
