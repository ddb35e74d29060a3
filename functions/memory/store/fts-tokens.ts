import { stemmer } from 'stemmer';

/**
 * FTS5's `porter unicode61` tokenizer, in JavaScript, for the text it can mirror exactly: the
 * in-memory postings index (postings-index.ts) must hold the very tokens FTS5 holds, or its bm25
 * would rank differently from FTS5's. Outside that domain it answers `null` and the caller falls
 * back to FTS5 itself. Held to FTS5 by test/workers/memory/fts-tokens.test.ts (every character it
 * claims, and every turn of the recall set, against FTS5's own `fts5vocab` instances).
 *
 * - unicode61 splits on every character outside the letter, number and private-use categories and
 *   folds case; with its default `remove_diacritics 1` it folds Latin-1 accented letters to their
 *   base letter ("café" -> "cafe"). Its tables are of an older Unicode: emoji assigned since are
 *   token characters to it ("lol🤩" is one token), and mirrored as such.
 * - porter stems every token of 3 to 64 bytes with the Porter (1980) algorithm, digits included
 *   ("1990s" -> "1990"); the `stemmer` package implements the same algorithm, and leaves shorter
 *   tokens as they are, as FTS5 does.
 */

/** FTS5's FTS5_PORTER_MAX_TOKEN: longer tokens pass through unstemmed. */
const PORTER_MAX_TOKEN = 64;

/**
 * Latin-1 letters whose canonical decomposition is an ASCII letter and marks: unicode61 folds them
 * to that letter. Latin-1 letters without one (Æ, Ð, Ø, Þ, ß) are outside the mirrored domain.
 */
function foldLatin1(ch: string): string | null {
  const base = ch.normalize('NFD').charAt(0);
  return /^[A-Za-z]$/.test(base) ? base.toLowerCase() : null;
}

/**
 * Non-ASCII characters unicode61 treats as separators, as [first, last] code points. Its tables
 * are of an older Unicode than JavaScript's: characters assigned since (U+2066, most emoji from
 * U+1F321 on) are token characters to it, so only the ranges it lists are here, each confirmed
 * against FTS5 by the test. Latin-1 punctuation and symbols; General Punctuation (curly quotes,
 * dashes, ellipsis, zero-width joiner); Miscellaneous Symbols; Dingbats but the ones assigned
 * since (✀, the circled digits are numbers to it); the emoji of Unicode 6; variation selectors.
 */
const SEPARATORS: readonly (readonly [number, number])[] = [
  [0xa0, 0xa9],
  [0xab, 0xb1],
  [0xb4, 0xb4],
  [0xb6, 0xb8],
  [0xbb, 0xbb],
  [0xbf, 0xbf],
  [0xd7, 0xd7],
  [0xf7, 0xf7],
  [0x2000, 0x2064],
  [0x206a, 0x206f],
  [0x2600, 0x26ff],
  [0x2701, 0x2775],
  [0x2794, 0x27bf],
  [0xfe00, 0xfe0f],
  [0x1f300, 0x1f320],
  [0x1f330, 0x1f335],
  [0x1f337, 0x1f37c],
  [0x1f380, 0x1f393],
  [0x1f3a0, 0x1f3c4],
  [0x1f3c6, 0x1f3ca],
  [0x1f3e0, 0x1f3f0],
  [0x1f400, 0x1f43e],
  [0x1f440, 0x1f440],
  [0x1f442, 0x1f4f7],
  [0x1f4f9, 0x1f4fc],
  [0x1f500, 0x1f53d],
  [0x1f540, 0x1f543],
  [0x1f550, 0x1f567],
  [0x1f5fb, 0x1f640],
  [0x1f645, 0x1f64f],
  [0x1f680, 0x1f6c5],
  [0x1f700, 0x1f773],
];

/**
 * The emoji block's characters unicode61 does not list as separators (emoji assigned after its
 * tables, from U+1F321 on): token characters to it, kept as they are (no case, no diacritics),
 * each checked against workerd's FTS5 (test/workers/memory/postings-index.test.ts). Below U+1F300
 * (mahjong tiles, regional indicators) it reads otherwise, and those stay outside.
 * Chat is full of them ("lol🤣"), and a row holding one was outside the mirror: at a million turns
 * of chat half the bounded bm25 lists fell back to FTS5's own bm25 (docs/scale.md).
 */
const EMOJI_FROM = 0x1f300;
const EMOJI_TO = 0x1faff;

function isSeparator(code: number): boolean {
  for (const [first, last] of SEPARATORS) if (code >= first && code <= last) return true;
  return false;
}

/**
 * How unicode61 reads a non-ASCII character: a letter to append (folded), a separator, or `null`
 * when the character is outside what this module mirrors.
 */
function nonAscii(code: number, ch: string): string | 'sep' | null {
  if (isSeparator(code)) return 'sep';
  if (code >= 0xc0 && code <= 0xff) return foldLatin1(ch);
  if (code >= EMOJI_FROM && code <= EMOJI_TO) return ch;
  return null;
}

/** Stems as FTS5's porter tokenizer does. */
const stems = new Map<string, string>();
const STEM_CACHE_MAX = 50_000;

function stem(token: string): string {
  if (token.length > PORTER_MAX_TOKEN) return token;
  let out = stems.get(token);
  if (out === undefined) {
    out = stemmer(token);
    if (stems.size >= STEM_CACHE_MAX) stems.clear();
    stems.set(token, out);
  }
  return out;
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const ASCII_TOKEN = /[a-z0-9]+/g;

/** The tokens FTS5 stores for `text`, in order, or `null` when `text` is outside the domain. */
export function ftsTokens(text: string): string[] | null {
  if (ASCII_ONLY.test(text)) {
    const out: string[] = [];
    for (const m of text.toLowerCase().matchAll(ASCII_TOKEN)) out.push(stem(m[0]));
    return out;
  }
  const out: string[] = [];
  let token = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    let letter: string | 'sep' | null;
    if (code < 0x80) letter = /[A-Za-z0-9]/.test(ch) ? ch.toLowerCase() : 'sep';
    else letter = nonAscii(code, ch);
    if (letter === null) return null;
    if (letter === 'sep') {
      if (token !== '') out.push(stem(token));
      token = '';
    } else token += letter;
  }
  if (token !== '') out.push(stem(token));
  return out;
}

/** The one token a query word becomes in FTS5, or `null` (none, several, or outside the domain). */
export function ftsToken(word: string): string | null {
  const tokens = ftsTokens(word);
  return tokens !== null && tokens.length === 1 ? (tokens[0] ?? null) : null;
}

/**
 * Counts, for text fts-tokens.ts mirrors, every token FTS5 stores and how often each of a few
 * wanted tokens occurs: what bm25 reads of a row (bm25-rows.ts) without building its token list.
 * Porter rewrites only a word's end, never its first letter, so a word whose first letter starts
 * no wanted token is counted without being stemmed.
 */
export class TokenCounter {
  readonly counts: Map<string, number>;
  private readonly firsts: Set<number>;

  constructor(wanted: Iterable<string>) {
    this.counts = new Map([...wanted].map((t) => [t, 0]));
    this.firsts = new Set([...this.counts.keys()].map((t) => t.charCodeAt(0)));
  }

  /** Sets every wanted token's count to zero, for the next row. */
  reset(): void {
    for (const token of this.counts.keys()) this.counts.set(token, 0);
  }

  /** Adds `text`'s wanted tokens to the counts; its token count, or -1 outside the domain. */
  add(text: string): number {
    if (!ASCII_ONLY.test(text)) {
      const tokens = ftsTokens(text);
      if (tokens === null) return -1;
      for (const token of tokens) this.count(token);
      return tokens.length;
    }
    let n = 0;
    let start = -1;
    for (let i = 0; i <= text.length; i++) {
      const c = i < text.length ? text.charCodeAt(i) : 32;
      if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
        if (start < 0) start = i;
        continue;
      }
      if (start < 0) continue;
      n++;
      const first = text.charCodeAt(start);
      if (this.firsts.has(first >= 65 && first <= 90 ? first + 32 : first))
        this.count(stem(text.slice(start, i).toLowerCase()));
      start = -1;
    }
    return n;
  }

  private count(token: string): void {
    const n = this.counts.get(token);
    if (n !== undefined) this.counts.set(token, n + 1);
  }
}
