/**
 * The local provider's extraction: split content into atomic statements and resolve first-person
 * statements to the speaker ("I moved to Lisbon" said by Maya -> "Maya moved to Lisbon").
 * Questions, greetings and fragments are not statements and are dropped, never guessed at.
 */

const FILLER =
  /^(?:hi|hello|hey|thanks|thank you|ok|okay|sure|great|yes|no|well|so|oh|by the way|btw|also|anyway|actually)\b[,!.]?\s*/i;

// "Big news: ..." - a short label before a colon is not part of the statement.
const LEAD_IN = /^[^:]{1,24}:\s+/;

// Statements whose subject cannot be resolved from the text are dropped rather than guessed.
const UNRESOLVABLE = /^(?:that|this|it|there|let us|let's|please|ok|okay|you)\b/i;

// Verbs after which the next clause stays as it is (past tense, modals) when "I" becomes a name.
const KEEP_VERB = new Set([
  'was',
  'had',
  'did',
  'will',
  'would',
  'can',
  'could',
  'should',
  'might',
  'must',
  'shall',
  'may',
  'used',
  'never',
  'always',
  'also',
  'just',
  'still',
  'recently',
  'finally',
  'now',
  'often',
  // common irregular past tenses
  ...'sold bought went made got took left met found drove began became grew ate wrote spent lost won ran saw told kept gave came knew thought felt built taught paid sent flew'.split(
    ' ',
  ),
]);

const IRREGULAR: Record<string, string> = {
  am: 'is',
  have: 'has',
  do: 'does',
  go: 'goes',
  "don't": "doesn't",
};

/** Third person singular of a present-tense verb ("work" -> "works", "study" -> "studies"). */
export function thirdPerson(verb: string): string {
  const lower = verb.toLowerCase();
  const irregular = IRREGULAR[lower];
  if (irregular) return irregular;
  if (KEEP_VERB.has(lower) || /ed$/.test(lower)) return verb;
  if (/(s|sh|ch|x|z|o)$/.test(lower)) return `${verb}es`;
  if (/[^aeiou]y$/.test(lower)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

/** Rewrites first-person words to the speaker's name, keeping the verb in agreement. */
export function resolveFirstPerson(statement: string, speaker: string): string {
  let out = statement
    .replace(/\bI'm\b/g, `${speaker} is`)
    .replace(/\bI've\b/g, `${speaker} has`)
    .replace(/\bI'll\b/g, `${speaker} will`)
    .replace(/\bI'd\b/g, `${speaker} would`)
    .replace(/\b[Mm]yself\b/g, speaker)
    .replace(/\b[Mm]ine\b/g, `${speaker}'s`)
    .replace(/\b[Mm]y\b/g, `${speaker}'s`)
    .replace(/\b(?<=\s)me\b/g, speaker)
    .replace(/\b(?<=\s)[Ww]e\b/g, `${speaker} and family`);
  // "I <adverb>? <verb>" -> "<speaker> <adverb>? <verb-s>"
  out = out.replace(
    /\bI\s+((?:really|also|still|now|usually|often|just|currently|mostly)\s+)?([A-Za-z']+)/g,
    (_m, adverb: string | undefined, verb: string) =>
      `${speaker} ${adverb ?? ''}${thirdPerson(verb)}`,
  );
  return out.replace(/\s+/g, ' ').trim();
}

/** Sentences, then clauses joined by "and"/"but" that restart with a subject. */
export function splitStatements(content: string): string[] {
  const sentences = content
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?;])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const out: string[] = [];
  for (const sentence of sentences) {
    if (/\?\s*$/.test(sentence)) continue; // a question states nothing
    const clauses = sentence.split(
      /,?\s+(?:and|but|while|although)\s+(?=(?:(?:now|then|also|so)\s+)?(?:I|I'm|I've|my|My|she|he|they|[A-Z][a-z]+)\s)/,
    );
    for (const clause of clauses) {
      const cleaned = clause
        .replace(LEAD_IN, '')
        .replace(FILLER, '')
        .replace(/^(?:now|then|also|so)\s+/i, '')
        .replace(/[.!;,\s]+$/, '')
        .trim();
      if (cleaned.split(/\s+/).length < 2 || UNRESOLVABLE.test(cleaned)) continue;
      out.push(cleaned.charAt(0).toUpperCase() + cleaned.slice(1));
    }
  }
  return out;
}

/** Atomic statements of `content`, first person resolved when the speaker is known. */
export function atomicStatements(content: string, speaker?: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const statement of splitStatements(content)) {
    const resolved = speaker ? resolveFirstPerson(statement, speaker) : statement;
    const key = resolved.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(`${resolved}.`);
  }
  return out;
}
