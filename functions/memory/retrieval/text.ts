/** Small English stopword list shared by the local embedder and the BM25 query builder. */
export const STOPWORDS = new Set(
  (
    'a an and are as at be but by for from has have had he her his i in is it its of on or our she ' +
    'that the their them they this to was we were what when where which who why will with you your ' +
    'do does did how not no so than then there these those into about over after before also can'
  ).split(' '),
);

/** Lower-cased word tokens (letters and digits, unicode aware). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Content words: tokens minus stopwords. */
export function contentWords(text: string): string[] {
  return words(text).filter((w) => !STOPWORDS.has(w));
}

/**
 * Words a question is made of that say nothing about its answer: the stopwords above plus
 * question, auxiliary and filler words ("would", "might", "much") and the bare letters left by a
 * split contraction. Only the query side drops them; indexing keeps every word. "Happen" is the
 * frame of "What happened in June?", as "do" is of "What did I do in May?": left in, it made such
 * a question's one content word and soft-matched any turn near "happened" ("yesterday", "went"),
 * so a turn of another month could outrank June's (no dev ranking changed when it went).
 */
export const QUERY_STOPWORDS = new Set([
  ...STOPWORDS,
  ...(
    'am been being would could should might may must shall me my mine us him hers theirs ours ' +
    'yours whom whose if just very really too ever any some much many more most get got go goes ' +
    'going gone s t d m ll re ve kind sort thing things up out off happen happens happened happening'
  ).split(' '),
]);

/** What a contraction's ending stands for ("I'm" -> "am", "didn't" -> "not"). */
export const CONTRACTED_ENDINGS: Readonly<Record<string, string>> = {
  "n't": 'not',
  "'m": 'am',
  "'re": 'are',
  "'ve": 'have',
  "'ll": 'will',
  "'d": 'would',
};

/** Negated auxiliaries whose stem changes ("won't" -> "will not"; "wo" + "n't"). */
export const NEGATED_STEMS: Readonly<Record<string, string>> = {
  wo: 'will',
  ca: 'can',
  sha: 'shall',
};

const CONTRACTIONS: [RegExp, string][] = [
  ...Object.entries(NEGATED_STEMS).map(([stem, verb]): [RegExp, string] => [
    new RegExp(`\\b${stem}n't\\b`, 'g'),
    `${verb} not`,
  ]),
  ...Object.entries(CONTRACTED_ENDINGS).map(([ending, word]): [RegExp, string] => [
    new RegExp(`${ending}\\b`, 'g'),
    ` ${word}`,
  ]),
  // "Melanie's kids", "she's": a possessive or "is"; both leave just the name or pronoun.
  [/'s\b/g, ''],
  [/s'(?=\s|$)/g, 's'],
];

/**
 * Lower-cased text with curly apostrophes straightened, contractions expanded ("didn't" ->
 * "did not", "I'm" -> "I am") and possessives stripped ("Melanie's" -> "Melanie"), so neither
 * leaves a stray "s" or "t" token behind.
 */
export function expandContractions(text: string): string {
  let out = text.toLowerCase().replace(/[\u2019\u2018`]/g, "'");
  for (const [pattern, replacement] of CONTRACTIONS) out = out.replace(pattern, replacement);
  return out;
}

const NUMBER_WORDS = (
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen ' +
  'sixteen seventeen eighteen nineteen twenty'
).split(' ');
const TENS = 'thirty forty fifty sixty seventy eighty ninety'.split(' ');

/**
 * Each small number in its other spelling, by either spelling: "9" and "09" -> "nine", "nine" ->
 * "9", "forty" -> "40", "40" -> "forty". Built once: every word of every write is looked up.
 */
const NUMBER_FORMS: ReadonlyMap<string, readonly string[]> = (() => {
  const forms = new Map<string, readonly string[]>();
  NUMBER_WORDS.forEach((word, n) => forms.set(word, [String(n)]));
  TENS.forEach((word, i) => forms.set(word, [String((i + 3) * 10)]));
  for (let n = 0; n < 100; n++) {
    const spelled = n <= 20 ? NUMBER_WORDS[n] : n % 10 === 0 ? TENS[n / 10 - 3] : undefined;
    if (spelled === undefined) continue;
    forms.set(String(n), [spelled]);
    if (n < 10) forms.set(`0${n}`, [spelled]);
  }
  return forms;
})();

/** The other spelling of a small number: "9" <-> "nine", "40" <-> "forty"; [] for anything else. */
export function numberForms(word: string): string[] {
  const forms = NUMBER_FORMS.get(word);
  return forms === undefined ? [] : [...forms];
}

/**
 * The words of a query worth matching: contractions and possessives resolved, query stopwords
 * dropped, and small numbers in both spellings.
 */
export function queryWords(text: string): string[] {
  const out: string[] = [];
  for (const w of words(expandContractions(text))) {
    if (QUERY_STOPWORDS.has(w)) continue;
    out.push(w, ...numberForms(w));
  }
  return [...new Set(out)];
}
