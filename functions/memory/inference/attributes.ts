import { normalise, stem } from './text.ts';

/**
 * A statement read as subject / attribute / value, so that reconciliation can tell a new value
 * of an attribute ("Maya moved to Lisbon") from a new attribute ("Maya adopted a cat"). Returns
 * undefined when the statement does not have that shape: such statements are only ever
 * de-duplicated, never superseded.
 */
export interface AttributeReading {
  subject: string;
  attribute: string;
  value: string;
}

// Predicates that name the same attribute, keyed by stem of the verb (+ preposition).
const PREDICATE_GROUPS: Record<string, string> = {
  'liv in': 'location',
  'mov to': 'location',
  'relocat to': 'location',
  'is bas in': 'location',
  'is from': 'origin',
  'work as': 'occupation',
  'work at': 'employer',
  'work for': 'employer',
  join: 'employer',
  'is marri to': 'partner',
  marri: 'partner',
  driv: 'vehicle',
};

const LINKING = new Set(['is', 'are', 'was', 'were', 'has', 'have', 'had']);
const PREPOSITIONS = new Set(['in', 'to', 'at', 'as', 'for', 'from', 'with', 'on', 'a', 'an']);

function isVerb(word: string): boolean {
  return LINKING.has(word) || /^[a-z]+(?:s|ed)$/.test(word);
}

export function readAttribute(statement: string): AttributeReading | undefined {
  const tokens = statement.replace(/[.!]+$/, '').split(/\s+/);
  let verbAt = -1;
  for (let i = 1; i < tokens.length && i <= 5; i++) {
    const w = (tokens[i] ?? '').toLowerCase();
    if (isVerb(w) && !/'s$/.test(w)) {
      verbAt = i;
      break;
    }
  }
  if (verbAt < 1 || verbAt >= tokens.length - 1) return undefined;
  const subject = normalise(tokens.slice(0, verbAt).join(' '));
  const verb = (tokens[verbAt] ?? '').toLowerCase();
  const next = (tokens[verbAt + 1] ?? '').toLowerCase();
  const verbStem = LINKING.has(verb) ? verb : stem(verb);
  let predicate = verbStem;
  let valueFrom = verbAt + 1;
  if (PREPOSITIONS.has(next)) {
    predicate = `${verbStem} ${next}`;
    valueFrom = verbAt + 2;
  } else if (LINKING.has(verb) && next && /ed$/.test(next)) {
    // "is based in", "is married to"
    const prep = (tokens[verbAt + 2] ?? '').toLowerCase();
    predicate = `${verb} ${stem(next)}${PREPOSITIONS.has(prep) ? ` ${prep}` : ''}`;
    valueFrom = verbAt + (PREPOSITIONS.has(prep) ? 3 : 2);
  }
  const valueTokens = tokens
    .slice(valueFrom)
    .filter((t) => !/^(now|again|recently|last|this|these|days|month|year|week)$/i.test(t));
  if (valueTokens.length === 0) return undefined;
  const attribute = PREDICATE_GROUPS[predicate] ?? PREDICATE_GROUPS[verbStem] ?? predicate;
  return { subject, attribute, value: normalise(valueTokens.join(' ')) };
}

/** A bare linking verb ("is", "has") is too vague to call two values rivals. */
function vague(attribute: string): boolean {
  return LINKING.has(attribute) || /^\S+ (?:a|an|with|on)$/.test(attribute);
}

/** Two readings describe the same attribute of the same subject. */
export function sameAttribute(a: AttributeReading, b: AttributeReading): boolean {
  if (vague(a.attribute)) return false;
  return a.subject === b.subject && a.attribute === b.attribute;
}

/**
 * The verb stems a statement of `attribute` may use ("location": liv, mov, relocat, bas), each
 * the stem of its main verb (a linking verb before it skipped), so that a search can find the
 * other statements of the same attribute. Empty for an attribute too vague to be superseded.
 */
export function attributeVerbStems(attribute: string): string[] {
  if (vague(attribute)) return [];
  const predicates = Object.entries(PREDICATE_GROUPS)
    .filter(([, group]) => group === attribute)
    .map(([predicate]) => predicate);
  const out = new Set<string>();
  for (const predicate of predicates.length > 0 ? predicates : [attribute]) {
    const words = predicate.split(' ');
    const verb = LINKING.has(words[0] ?? '') && words.length > 1 ? words[1] : words[0];
    if (verb) out.add(verb);
  }
  return [...out];
}
