import { CHAT_ABBREVIATIONS } from './chat-abbreviations.ts';
import { wordTags } from './lexicon.ts';
import { wordVectorTable } from './word-vector-table.ts';
import { QUERY_STOPWORDS } from './text.ts';

/**
 * Who is called what in a chat (issue 42, item 2). People rarely call each other by the label a
 * chat export puts on their messages: Samantha's friend writes "Morning Sammy!", and a question
 * asks "What sports does Sam play?". A turn's vocatives name the person it is addressed to (the
 * other speaker of its session); a self-introduction names its speaker ("I'm Sam", "call me
 * Sam", "it's Sam here", with a first name or a rare word; not "this is Oscar", often a pet in a
 * photo, nor "I'm Spanish"). The store keeps one vote per turn and name (store/aliases.ts); a question's word that
 * the votes tie to one label is read as that label.
 *
 * Only positions where a name is the natural reading count, since any word can follow "hey":
 * - the last word of a clause after a greeting or a word of address ("Hey Sam", "Night Gaz x",
 *   "love you Sam", "Proud of you Sam", "Happy Friday Sam");
 * - the last word of a question after a word that does not take an object, when it is a first
 *   name or a rare word ("How are things Sam?", "How was your weekend Shiv?"; not "Did you see
 *   Paris?" or "What made you decide to learn Spanish?");
 * - a turn's first word alone or before a comma or "you" ("Sam!!!", "Sam, did you…",
 *   "Sammy you legend").
 * And only words that can be names: the lexicon's first names; otherwise a capitalised word not at
 * the start of its clause, or a word the lexicon does not list at all (nicknames like "Shiv" or
 * "Gaz" are in no lexicon). Words of address, greetings, texting abbreviations and stopwords never
 * are. What one turn gets wrong ("morning coffee") is outvoted: the store reads an alias only from
 * two or more turns that agree (store/aliases.ts).
 */

/** Whom a name in a turn refers to. */
export type Callee = 'addressee' | 'speaker';

export interface NameCall {
  /** The name as a lower-cased word. */
  alias: string;
  callee: Callee;
}

/** Words after which a clause's last word is said to someone ("Hey Sam", "love you Sam"). */
const CALLING = new Set(
  (
    'hey heya hi hiya hello helloo yo oi morning mornin evening night nite nighty goodnight gn ' +
    'bye byee cya later thanks thank thx ty tysm cheers congrats congratulations sorry welcome ' +
    'you u ya love miss dear well luck soon birthday bday friday saturday sunday monday tuesday ' +
    'wednesday thursday weekend christmas xmas year god gosh wow omg aw aww yay'
  ).split(' '),
);

/** Words before a question's last word that make it an object, not a name ("Did you see Paris?"). */
const TAKES_OBJECT = new Set(
  (
    'to in at from of about with for on into onto near by like than as and or but is was are ' +
    'were be been a an the my your his her our their its this that these those some any see saw ' +
    'seen visit visited visiting meet met call called text texted tell told ask asked try tried ' +
    'watch watched play played read get got make made want wanted need needed have had do did ' +
    'go went going love loved miss missed know knew think thought say said'
  ).split(' '),
);

/** Words that are never a name, whatever their case. */
const NEVER = new Set(
  (
    'x xx xxx xo hey heya hi hiya hello yo oi morning mornin evening night nite goodnight bye ' +
    'thanks thank cheers congrats sorry welcome yes yeah yep yup no nope nah ok okay okey sure ' +
    'wow omg oh ooh ah aw aww ugh yay haha hahaha lol lmao hmm hm mate babe hun love dear guys ' +
    'everyone all both friend bestie girl boy dude bro sis man lady today tonight tomorrow ha ' +
    'hah heh hehe oof eek yikes phew meh oops whoa woah image photo pic video link'
  ).split(' '),
);

/** Words that may follow a vocative at a clause's end. */
const TAIL = new Set('x xx xxx xo xoxo lol haha hahaha lmao too'.split(' '));

const NAME_TAGS = new Set(['FirstName', 'MaleName', 'FemaleName', 'Person']);

/** Clauses end at sentence and clause punctuation, dashes, emoji and line breaks. */
const CLAUSE_END = /[.!?,;:\n\u2026]+|\s[-\u2013\u2014]\s|\p{Extended_Pictographic}/u;

interface Word {
  text: string;
  lower: string;
  capitalised: boolean;
}

interface Clause {
  words: Word[];
  /** What ended it: a question mark, a comma, other punctuation, or the end of the turn. */
  end: '?' | ',' | 'other' | 'end';
}

function clauses(text: string): Clause[] {
  const out: Clause[] = [];
  let rest = text;
  for (;;) {
    const m = CLAUSE_END.exec(rest);
    const body = m ? rest.slice(0, m.index) : rest;
    const words = (body.match(/\p{L}[\p{L}'\u2019]*/gu) ?? []).map((w) => {
      const text = w.replace(/['\u2019]s$/u, '');
      return { text, lower: text.toLowerCase(), capitalised: /^\p{Lu}\p{Ll}/u.test(text) };
    });
    const end = m === null ? 'end' : m[0].includes('?') ? '?' : m[0].includes(',') ? ',' : 'other';
    if (words.length > 0) out.push({ words, end });
    if (m === null) return out;
    rest = rest.slice(m.index + Math.max(m[0].length, 1));
  }
}

/**
 * Rank in the word vectors' frequency order past which a word is rare enough to be a nickname
 * ("shiv" 27,348th, "gaz" 27,865th) rather than a common word a question ends on ("What made you
 * decide to learn Spanish?": "spanish" is far more frequent).
 */
const RARE_RANK = 15_000;

/** "yesss", "hiii", "noo": a stretched word, a word after all. */
const STRETCHED = /(\p{L})\1\1|(\p{L})\2$/u;

/**
 * Whether a word in a vocative position can be a name (see the module's comment): a first name of
 * the lexicon (before the stretched-word test: "Nell", "Ross" and "Jill" end in a doubled letter
 * as "noo" does); a capitalised word inside its clause; or a word the lexicon does not list that
 * the word vectors' 40k vocabulary does not know, or, inside a clause, knows only as a rare word
 * (`RARE_RANK`): chat is often typed in lower case ("night shiv x"), and "shiv" or "gaz" after a
 * greeting is no word people say to each other. A turn's first word alone must be unknown:
 * "Glamorous!" and "Finally!" open turns as words.
 */
function nameLike(word: Word, clauseStart: boolean): boolean {
  const w = word.lower;
  if (w.length < 2 || w.length > 24 || NEVER.has(w) || CALLING.has(w)) return false;
  if (QUERY_STOPWORDS.has(w) || CHAT_ABBREVIATIONS.has(w)) return false;
  const tags = wordTags(w);
  if (tags.some((t) => NAME_TAGS.has(t))) return true;
  if (STRETCHED.test(w)) return false;
  if (word.capitalised && !clauseStart) return true;
  if (tags.length > 0) return false;
  // A turn's first word stands alone for many reasons ("Glamorous!"): there, unknown words only.
  const rank = wordVectorTable().rows.get(w) ?? Number.POSITIVE_INFINITY;
  return clauseStart ? rank === Number.POSITIVE_INFINITY : rank > RARE_RANK;
}

/** A first name of the lexicon, or a word rare or unknown in the vocabulary. */
function firstNameOrRare(w: string): boolean {
  if (wordTags(w).some((t) => NAME_TAGS.has(t))) return true;
  return (wordVectorTable().rows.get(w) ?? Number.POSITIVE_INFINITY) > RARE_RANK;
}

/** "I'm Sam", "my name is Sam", "call me Sam", "it's Sam here", "Sam here": the speaker's name. */
const INTRODUCTION =
  /(?:^|[\s,])(?:I['\u2019]?m|I am|[Mm]y name is|[Mm]y name['\u2019]s|[Cc]all me)\s+(\p{Lu}\p{Ll}+)(?=\s*(?:$|[.!?,]|\shere\b))|(?:^|[\s,])[Ii]t['\u2019]?s (\p{Lu}\p{Ll}+) here\b|^(\p{Lu}\p{Ll}+) here\b/gu;

/**
 * The names a chat turn calls people by, without its speaker prefix (`body`): vocatives for the
 * addressee, self-introductions for the speaker. At most one call per name.
 */
export function namesCalled(body: string): NameCall[] {
  const out = new Map<string, Callee>();
  const add = (alias: string, callee: Callee): void => {
    if (!out.has(alias)) out.set(alias, callee);
  };
  for (const m of body.matchAll(INTRODUCTION)) {
    const name = m[1] ?? m[2] ?? m[3];
    if (name === undefined) continue;
    const word = { text: name, lower: name.toLowerCase(), capitalised: true };
    // "I'm Spanish", "I'm Happy": only a first name or a rare word.
    if (nameLike(word, false) && firstNameOrRare(word.lower)) add(word.lower, 'speaker');
  }
  // "[image: a bowl of noodle soup]": a caption, nobody's words.
  const parts = clauses(body.replace(/\[[^\]]*\]/g, ' '));
  parts.forEach((clause, index) => {
    // "Night Gaz x", "love you Sam haha": a kiss or a laugh after the name is not the last word.
    const words = [...clause.words];
    while (words.length > 1 && TAIL.has(words[words.length - 1]?.lower ?? '')) words.pop();
    const last = words[words.length - 1];
    const before = words[words.length - 2];
    if (last !== undefined && before !== undefined) {
      if (CALLING.has(before.lower) && nameLike(last, false)) add(last.lower, 'addressee');
      else if (
        clause.end === '?' &&
        !TAKES_OBJECT.has(before.lower) &&
        last.capitalised &&
        nameLike(last, false) &&
        firstNameOrRare(last.lower)
      )
        add(last.lower, 'addressee');
    }
    if (index === 0) {
      const first = words[0];
      const second = words[1];
      const alone = words.length === 1 && clause.end !== '?';
      const beforeComma = words.length === 1 && clause.end === ',';
      const beforeYou = second !== undefined && (second.lower === 'you' || second.lower === 'u');
      if (first !== undefined && (alone || beforeComma || beforeYou) && nameLike(first, true))
        add(first.lower, 'addressee');
    }
  });
  return [...out].map(([alias, callee]) => ({ alias, callee }));
}

/** A question's words that may be aliases, lower-cased, at most `max` (name-like words first). */
export function aliasCandidates(question: string, max = 12): string[] {
  const words = question.match(/\p{L}[\p{L}'\u2019]*/gu) ?? [];
  const out = new Set<string>();
  for (const raw of words) {
    const w = raw.replace(/['\u2019]s$/u, '').toLowerCase();
    if (w.length < 2 || QUERY_STOPWORDS.has(w)) continue;
    out.add(w);
  }
  return [...out].slice(0, max);
}

/**
 * The question with each alias the Context resolved (`resolved`: lower-cased alias -> label)
 * written as the label. A word is rewritten when capitalised, or when the whole question is in
 * lower case (chat-style); "What kit does Gaz use?" keeps its lower-case "kit".
 */
export function withAliases(question: string, resolved: ReadonlyMap<string, string>): string {
  if (resolved.size === 0) return question;
  const lowerCase = question.slice(1) === question.slice(1).toLowerCase();
  return question.replace(/\p{L}[\p{L}]*/gu, (word) => {
    const label = resolved.get(word.toLowerCase());
    if (label === undefined) return word;
    if (!lowerCase && !/^\p{Lu}/u.test(word)) return word;
    return label;
  });
}
