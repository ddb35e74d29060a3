import { COUNTRIES, PLACES } from './gazetteer.generated.ts';
import { lexiconTags } from './lexicon.ts';
import { thesaurusEntry } from './synonyms.ts';
import { speakerOf } from './text-analysis.ts';

/**
 * Places named in a text, looked up in a gazetteer (gazetteer.generated.ts: 3,900 towns and cities
 * of 50,000 people or more and every capital, with their countries; 252 countries with their
 * common names). A memory says "Booked flights to Krakow!" and the question asks "Which country
 * did Maya choose?" or "Would she recommend Poland?": nothing in the words joins them, and a word
 * vector for "Krakow" is near other Polish cities, not near "country". Entity linking to a
 * gazetteer is how search engines and QA systems bridge it; here each place an item names adds
 * index terms at write time (`placeTerms`): its country's names, and the words "city" or "country"
 * for what kind of place it is (the hypernym, as a thesaurus-backed index would add it).
 */

export interface PlaceMention {
  /** The name as the gazetteer has it ("Cape Town", "Poland"). */
  name: string;
  kind: 'city' | 'country';
  /** ISO 3166-1 code of the country it is, or is in. */
  country: string;
}

interface Gazetteer {
  /** Place name -> ISO code, for cities and for every name of every country. */
  byName: Map<string, { kind: 'city' | 'country'; country: string }>;
  /** ISO code -> the country's names, lower-cased words ("united kingdom", "uk", "britain"). */
  countryWords: Map<string, string[]>;
  /** Longest name, in words. */
  longest: number;
  /** The first word of every name: a word that starts none starts no mention. */
  starts: Set<string>;
  /**
   * The first words of every name longer than them ("New", "New South"): a run of words that is
   * none of these starts no longer name, so no longer run needs a lookup.
   */
  prefixes: Set<string>;
}

let cached: Gazetteer | null = null;

function gazetteer(): Gazetteer {
  if (cached) return cached;
  const byName = new Map<string, { kind: 'city' | 'country'; country: string }>();
  const countryWords = new Map<string, string[]>();
  let longest = 1;
  for (const line of COUNTRIES.split('\n')) {
    const [code = '', names = ''] = line.split('\t');
    const list = names.split('|').filter((n) => n !== '');
    const words = new Set<string>();
    for (const name of list) {
      byName.set(name, { kind: 'country', country: code });
      longest = Math.max(longest, name.split(' ').length);
      for (const w of name.toLowerCase().split(/[\s.'-]+/)) if (w.length > 1) words.add(w);
    }
    countryWords.set(code, [...words]);
  }
  for (const line of PLACES.split('\n')) {
    const [name = '', code = ''] = line.split('\t');
    // A country's own name wins over a town called after it.
    if (!byName.has(name)) byName.set(name, { kind: 'city', country: code });
    longest = Math.max(longest, name.split(' ').length);
  }
  const starts = new Set([...byName.keys()].map((name) => name.split(' ')[0] ?? name));
  const prefixes = new Set<string>();
  for (const name of byName.keys()) {
    const words = name.split(' ');
    for (let k = 1; k < words.length; k++) prefixes.add(words.slice(0, k).join(' '));
  }
  cached = { byName, countryWords, longest, starts, prefixes };
  return cached;
}

/**
 * Words that come before a place: "to Bath", "in Reading", "from Nice". A place name that is also
 * an everyday word ("Bath", "Reading", "Nice", "Split"), a first name ("Charlotte", "Chad") or
 * three letters or fewer ("Ho", "US") counts only after one of them.
 */
const BEFORE_PLACE = new Set([
  'to',
  'in',
  'from',
  'near',
  'around',
  'outside',
  'via',
  'visit',
  'visiting',
  'visited',
  'of',
]);

function ambiguous(name: string): boolean {
  if (name.includes(' ')) return false;
  // Two- and three-letter towns ("Ho", "Van", "Ulm") and aliases ("US") read as words too often.
  if (name.length <= 3) return true;
  const lower = name.toLowerCase();
  if (thesaurusEntry(lower) !== undefined) return true;
  return lexiconTags(lower).some((t) => /Name$|^Person$/.test(t));
}

/** Accents off, as the gazetteer stores names ("Kraków" -> "Krakow"). */
function plain(text: string): string {
  // ASCII has no accents to take off (most texts are ASCII: the check is cheaper than NFD).
  if (!/[^\x00-\x7f]/.test(text)) return text;
  return text.normalize('NFD').replace(/\p{M}/gu, '');
}

/** Tags of compromise's lexicon for a place's name ("kyoto": City, "peru": Country). */
export const PLACE_TAGS = new Set(['City', 'Country', 'Region', 'Place']);
/** Tags a lower-case word may have and still name a place after a place preposition. */
const NAME_TAGS = /^(City|Country|Region|Place|ProperNoun|Person|\w*Name)$/;

/** "kyoto" -> "Kyoto": the gazetteer's spelling of a word written in lower case. */
function titled(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * Whether a name written in lower case ("kyoto", "new york") is read as a place. People type
 * place names in lower case in chat ("the temples in kyoto wer unreal"), and a lower-case word
 * is more often an everyday word than a capitalised one, so it takes more to count: one word the
 * lexicon knows as a place and that is no everyday word (`ambiguous`) counts anywhere ("kyoto",
 * "peru", "krakow"); any other name only right after a place preposition, no article between
 * ("to new york", "in turkey", "in cusco", but not "in the bath"), and a single word only when
 * the lexicon knows it as nothing but a name ("to split" is a verb, "to reading" a gerund).
 */
function lowerCasePlace(name: string, words: readonly string[], before: string): boolean {
  if (words.length > 1) return BEFORE_PLACE.has(before);
  const lower = name.toLowerCase();
  if (!ambiguous(name) && lexiconTags(lower).some((t) => PLACE_TAGS.has(t))) return true;
  if (!BEFORE_PLACE.has(before) || name.length <= 3) return false;
  return lexiconTags(lower).every((t) => NAME_TAGS.test(t));
}

/**
 * The places a text names, in order; a speaker's prefix ("Sydney: …") is not a mention. Names
 * are matched as the gazetteer writes them ("Krakow") or, in lower case, by `lowerCasePlace`. Not
 * memoised: at write time each item is read once, and at query time `answer-type.ts` keeps each
 * candidate's types (a memo keyed by content here would also hold every written text).
 */
export function placeMentions(content: string): PlaceMention[] {
  const { byName, longest, starts, prefixes } = gazetteer();
  const text = plain(speakerOf(content)?.rest ?? content);
  const tokens = text.match(/[\p{L}][\p{L}'\u2019.-]*|[^\s\p{L}]/gu) ?? [];
  const out: PlaceMention[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const written = tokens[i] ?? '';
    const lowerCase = /^\p{Ll}/u.test(written);
    if (!lowerCase && !/^\p{Lu}/u.test(written)) continue;
    // A lower-case run is looked up as the gazetteer writes it: each word capitalised.
    const word = (k: number): string => {
      const t = tokens[k] ?? '';
      return lowerCase ? titled(t) : t;
    };
    const first = word(i);
    // Every candidate below starts with this word as written, or is this word alone without its
    // "'s" or trailing stop: a word no name starts with needs none of the lookups.
    if (
      !starts.has(first) &&
      !starts.has(first.replace(/['\u2019]s$/u, '').replace(/[.'\u2019]+$/u, ''))
    )
      continue;
    // A run of n words names a place only if its first n - 1 words, as written, start a longer
    // name (the "'s" and stops taken off below change its last word only).
    const limit = Math.min(longest, tokens.length - i);
    let reach = 1;
    for (let run = first; reach < limit && prefixes.has(run); reach++)
      run = `${run} ${word(i + reach)}`;
    // Longest run of words first: "Cape Town" before "Cape", "New York" before "York".
    for (let n = reach; n >= 1; n--) {
      const words = Array.from({ length: n }, (_, k) => word(i + k));
      const name = words
        .join(' ')
        .replace(/['\u2019]s$/u, '')
        .replace(/[.'\u2019]+$/u, '');
      const hit = byName.get(name);
      if (!hit) continue;
      const previous = (tokens[i - 1] ?? '').toLowerCase();
      if (lowerCase) {
        if (!lowerCasePlace(name, words, previous)) {
          // A longer name not read as a place is not read in part either ("new york" is not
          // York, "long beach" not Beach).
          if (n > 1) {
            i += n - 1;
            break;
          }
          continue;
        }
      } else {
        // "to the UK": look past one article.
        const before = previous === 'the' ? (tokens[i - 2] ?? '').toLowerCase() : previous;
        if (ambiguous(name) && !BEFORE_PLACE.has(before)) continue;
      }
      out.push({ name, ...hit });
      i += n - 1;
      break;
    }
  }
  return out;
}

/**
 * Index terms for the places an item names: the country's names for a city ("krakow" -> "poland"),
 * the other names of a country ("uk" -> "united", "kingdom", "britain"), and "city" or "country"
 * for the kind of place. Lower-case words, each once. A writer that also reads the answer types
 * passes the mentions it already has (`placeMentions` once per item).
 */
export function placeTerms(
  content: string,
  mentions: readonly PlaceMention[] = placeMentions(content),
): string[] {
  const { countryWords } = gazetteer();
  const out = new Set<string>();
  for (const m of mentions) {
    out.add(m.kind);
    if (m.kind === 'city') out.add('country');
    for (const w of countryWords.get(m.country) ?? []) out.add(w);
  }
  return [...out];
}
