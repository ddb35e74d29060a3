import { emojiWords } from './chat-texture.ts';
import { listedLemma } from './lexicon.ts';
import { readChatWord } from './sif-embeddings.ts';
import { tag, type Token } from './tagger.ts';
import { numberForms, QUERY_STOPWORDS, queryWords, words } from './text.ts';

/**
 * Write-time and query-time analysis of text, on the compromise tagger (retrieval/tagger.ts):
 * entities for the graph (the speaker of a chat turn, proper names, noun phrases and their head
 * nouns) and extra index terms for bm25 (verb and noun lemmas, the other spelling of small
 * numbers, the speaker's name on a turn that speaks in the first person, the addressee's on one
 * that says "you"). A query is analysed the same way, so "When did Caroline go to the support
 * group?" meets "Caroline: I went to a support group…" on "caroline", "go" and "support group".
 */

/** Characters analysed by the tagger; the rest of a long text gets the light regex pass only. */
const MAX_TAGGED_CHARS = 3000;
const MAX_ENTITIES = 32;

/**
 * "Caroline: I went to…" — a chat turn's speaker prefix: one to three capitalised words and a
 * colon. Labels that are not people ("Note:", "Update:") are not speakers.
 */
const SPEAKER_PREFIX =
  /^\s*(\p{Lu}[\p{L}\p{M}'\u2019-]*(?: \p{Lu}[\p{L}\p{M}'\u2019-]*){0,2})\s*:\s+(?=\S)/u;
const NOT_SPEAKERS = new Set(
  (
    'note notes update todo summary re fyi ps warning important question answer q a tip reminder ' +
    'edit source example step fact decision context title subject date time error info status'
  ).split(' '),
);

/** Lemmas too common to be worth an index term ("was" -> "is", "has" -> "have"). */
const LIGHT_VERBS = new Set([...QUERY_STOPWORDS, 'be', 'is', 'have', 'do', 'say', 'make']);

const FIRST_PERSON = new Set(['i', 'me', 'my', 'mine', 'myself']);
const SECOND_PERSON = new Set(['you', 'your', 'yours', 'yourself']);

/**
 * Nouns too general to link two items in the graph (they would join every turn about anything);
 * fan-out caps catch the frequent ones, this catches the frequent-in-any-corpus ones up front.
 */
const GENERIC_NOUNS = new Set(
  (
    'thing things stuff lot lots bit way time times day days week weeks month months year years ' +
    'night morning evening afternoon today tomorrow yesterday weekend moment while people person ' +
    'guy guys one ones kind sort part end start place idea fun something anything everything ' +
    'nothing someone anyone everyone question answer number here there name names'
  ).split(' '),
);

export interface Speaker {
  /** The name as written ("Caroline"). */
  name: string;
  /** The turn without its prefix. */
  rest: string;
}

/** The speaker prefix of a chat turn, or null when the text does not start with one. */
export function speakerOf(content: string): Speaker | null {
  const m = SPEAKER_PREFIX.exec(content);
  const name = m?.[1];
  if (!m || !name || NOT_SPEAKERS.has(name.toLowerCase())) return null;
  return { name, rest: content.slice(m[0].length) };
}

export interface ContentAnalysis {
  speaker: string | null;
  /** Lower-cased entity names, most specific first: speaker, proper names, phrases, head nouns. */
  entities: string[];
  /** Extra tokens for the FTS `terms` column. */
  terms: string[];
}

/** Proper-name runs ("paper lantern books"), noun compounds ("emergency vet") and head nouns. */
function phrases(sentences: Token[][]): { names: string[]; compounds: string[]; heads: string[] } {
  const names: string[] = [];
  const compounds: string[] = [];
  const heads: string[] = [];
  for (const sentence of sentences) {
    let run: Token[] = [];
    const flush = (): void => {
      if (run.length === 0) return;
      const cls = run[0]?.cls;
      if (cls === 'proper') names.push(run.map((t) => t.normal).join(' '));
      else {
        const roots = run.map((t) => t.root).filter((r) => !GENERIC_NOUNS.has(r));
        const head = roots[roots.length - 1];
        if (head) heads.push(head);
        if (roots.length >= 2) compounds.push(roots.slice(-3).join(' '));
      }
      run = [];
    };
    for (const token of sentence) {
      const fits = token.cls === 'proper' || token.cls === 'noun';
      if (!fits || (run.length > 0 && run[0]?.cls !== token.cls)) flush();
      if (fits) run.push(token);
      if (token.boundary) flush();
    }
    flush();
  }
  return { names, compounds, heads };
}

/** Quoted terms, @handles and #tags: names the tagger has no reason to know. */
function markedNames(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/["\u201C]([^"\u201D]{2,60})["\u201D]/g)) if (m[1]) out.push(m[1]);
  for (const m of text.matchAll(/[@#][\p{L}\p{N}_-]{2,40}/gu)) out.push(m[0]);
  return out;
}

/** Capitalised phrases of text past the tagged part (names in long document chunks). */
function capitalisedNames(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(
    /(?<=[\p{Ll}\p{N},;] )\p{Lu}[\p{L}\p{N}'-]*(?: \p{Lu}[\p{L}\p{N}'-]*)*/gu,
  ))
    out.push(m[0]);
  return out;
}

function clean(names: string[]): string[] {
  const out = new Set<string>();
  for (const raw of names) {
    const name = raw.trim().replace(/\s+/g, ' ').toLowerCase();
    if (name.length < 2 || name.length > 80 || QUERY_STOPWORDS.has(name)) continue;
    out.add(name);
  }
  return [...out];
}

/**
 * Analyses an item's content at write time. `addressee` is whoever the turn answers (the
 * previous speaker of its session), when known: "your" in the turn refers to them.
 */
export function analyseContent(content: string, addressee: string | null = null): ContentAnalysis {
  const speaker = speakerOf(content);
  const body = speaker ? speaker.rest : content;
  const head = body.slice(0, MAX_TAGGED_CHARS);
  const sentences = tag(head);
  const { names, compounds, heads } = phrases(sentences);
  const entities = clean([
    ...(speaker ? [speaker.name] : []),
    ...names,
    ...markedNames(body),
    ...capitalisedNames(body.slice(MAX_TAGGED_CHARS)),
    ...compounds,
    ...heads,
  ]).slice(0, MAX_ENTITIES);

  const terms = new Set<string>();
  let firstPerson = false;
  let secondPerson = false;
  for (const token of sentences.flat()) {
    if (FIRST_PERSON.has(token.normal)) firstPerson = true;
    if (SECOND_PERSON.has(token.normal)) secondPerson = true;
    if ((token.cls === 'verb' || token.cls === 'noun') && token.root !== token.normal)
      for (const w of words(token.root)) if (!LIGHT_VERBS.has(w)) terms.add(w);
  }
  for (const w of words(head)) for (const form of numberForms(w)) terms.add(form);
  // Chat texture: the words behind emoji, abbreviations, stretched words and misspellings are
  // indexed too. A word outside the vocabulary is as often a real rarer word ("cosy") as a typo,
  // so a correction is only ever an extra term here; the embedder reads no corrections, where
  // wrong ones cost the long-conversation dev set 0.008 (docs/retrieval.md, twenty-third round).
  const read = readChatWord(true);
  for (const w of words(head)) for (const r of read(w)) for (const t of words(r)) terms.add(t);
  for (const w of emojiWords(head)) terms.add(w);
  // The speaker is who "I" is: say their name once more for a first-person turn.
  if (speaker && firstPerson) for (const w of words(speaker.name)) terms.add(w);
  if (addressee && secondPerson) for (const w of words(addressee)) terms.add(w);
  return { speaker: speaker?.name ?? null, entities, terms: [...terms] };
}

export interface QueryAnalysis {
  /** Words for bm25: query words (see text.ts `queryWords`) plus the base forms of irregular ones. */
  words: string[];
  /** Entity names to seed the graph from: proper names, noun phrases and head nouns. */
  entities: string[];
}

/**
 * A query's words for bm25 (every mode's bm25 arms), without tagging it: its query words plus the
 * base form of each the lexicon lists as irregular ("went" -> "go", "people" -> "person"). Regular
 * forms need no lemma, since the full-text index compares Porter stems: "reviews" and "review"
 * are one phrase there (store/fts.ts). Tagging the question was half of a bm25 query's time in
 * process, and only the graph needs what it finds (docs/hot-path.md, eleventh round).
 */
export function analyseQueryWords(text: string): string[] {
  const base = queryWords(text);
  const lemmas = base.flatMap((w) => listedLemma(w) ?? []);
  const extra = queryWords(lemmas.join(' ')).filter((w) => !LIGHT_VERBS.has(w));
  return [...new Set([...base, ...extra])];
}

/** The names, noun phrases and head nouns of a question: where the graph walk starts (tagged). */
export function questionEntities(text: string): string[] {
  const { names, compounds, heads } = phrases(tag(text.slice(0, MAX_TAGGED_CHARS)));
  return clean([...names, ...markedNames(text), ...compounds, ...heads]);
}

/** Analyses a query: only the query, so its cost does not grow with the Context. */
export function analyseQuery(text: string): QueryAnalysis {
  return { words: analyseQueryWords(text), entities: questionEntities(text) };
}
