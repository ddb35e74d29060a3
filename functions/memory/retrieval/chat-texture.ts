import { boundedMemo } from './bounded-memo.ts';
import { CHAT_ABBREVIATIONS } from './chat-abbreviations.ts';
import { EMOJI_WORDS } from './emoji-words.generated.ts';

/**
 * Chat's texture read back into words (issue 42, item 5): emoji, texting abbreviations, stretched
 * words ("sooo") and misspellings ("tenis", "restraunt"). A word a vocabulary already knows is left
 * as it is; only emoji, listed abbreviations and unknown words get readings. The readings are added
 * beside the text (index terms at write time, extra words in the local embedder), never instead of
 * it, so a wrong correction costs an extra term, not the word that was written.
 */

/** A word's frequency rank in a vocabulary (lower is more frequent), `undefined` if unknown. */
export type Rank = (word: string) => number | undefined;

/** What the reader knows of a vocabulary. */
export interface Vocabulary {
  /** Rank of a word as spelt (no inflections: "tenes" is not "ten"). */
  rank: Rank;
  /** Whether a word or its base form is known: known words are never corrected. */
  known: (word: string) => boolean;
}

/**
 * A correction must be among this many most frequent words: the misspellings worth reading are of
 * common words, and a rare word one edit from an unknown one is more often a stranger's name.
 */
const MAX_CORRECTION_RANK = 20_000;

/** Words shorter than this are not corrected: too many short words are one edit apart. */
const MIN_CORRECTED_LENGTH = 4;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

let emojiTable: ReadonlyMap<string, readonly string[]> | null = null;

function emojiWordsTable(): ReadonlyMap<string, readonly string[]> {
  if (emojiTable) return emojiTable;
  const map = new Map<string, readonly string[]>();
  for (const line of EMOJI_WORDS.split('\n')) {
    const [emoji, words] = line.split('\t');
    if (emoji && words) map.set(emoji, words.split(' '));
  }
  emojiTable = map;
  return map;
}

// One emoji: a pictographic character with its modifiers and joined parts (flags are two regional
// indicators). Variation selectors are dropped before the table lookup, as the table drops them.
const EMOJI =
  /\p{RI}\p{RI}|\p{Extended_Pictographic}(?:\p{EMod}|\uFE0F|\u200D\p{Extended_Pictographic})*/gu;

/**
 * Emoji of tone rather than topic, by code point: Unicode's "Smileys & Emotion" group (faces, cat
 * and monkey faces, hearts, 💯, 💀, 💥, speech bubbles), the hand gestures and eyes of "People &
 * Body" (👍, 🙏, 👀), and the two emoji chat uses as intensifiers, 🔥 and ✨. People put them at
 * the end of a message whatever it says ("cello practice ran late 😭"), and their names and
 * keywords ("loudly crying face sad tears", "fire hot flame") read as topic words to both bm25 and
 * the embedder, pulling a short turn towards every other that ends alike. Read as nothing; an emoji
 * of a thing (🎾, 🍜, 📱) still reads as its words. Measured on three real-chat noisy sets (dev,
 * seeds 901 and 555): -0.007 / -0.003, +0.017 / +0.017, +0.008 / +0.015 (docs/retrieval.md).
 */
const TONE_RANGES: readonly (readonly [number, number])[] = [
  [0x2639, 0x263a], // ☹ ☺
  [0x2620, 0x2620], // ☠
  [0x2728, 0x2728], // ✨
  [0x2763, 0x2764], // ❣ ❤
  [0x1f440, 0x1f440], // 👀
  [0x1f44a, 0x1f450], // 👊 … 👐
  [0x1f479, 0x1f47d], // 👹 … 👽
  [0x1f480, 0x1f480], // 💀
  [0x1f48b, 0x1f48c], // 💋 💌
  [0x1f493, 0x1f49f], // 💓 … 💟
  [0x1f4a2, 0x1f4a2], // 💢
  [0x1f4a4, 0x1f4a6], // 💤 💥 💦
  [0x1f4a8, 0x1f4a9], // 💨 💩
  [0x1f4ab, 0x1f4ad], // 💫 💬 💭
  [0x1f4af, 0x1f4af], // 💯
  [0x1f525, 0x1f525], // 🔥
  [0x1f573, 0x1f573], // 🕳
  [0x1f5a4, 0x1f5a4], // 🖤
  [0x1f5e8, 0x1f5e8], // 🗨
  [0x1f5ef, 0x1f5ef], // 🗯
  [0x1f600, 0x1f64f], // 😀 … 🙏 (emoticons: faces, cat and monkey faces, gestures)
  [0x1f90c, 0x1f92f], // 🤌 … 🤯 (hands, hearts and faces)
  [0x1f932, 0x1f932], // 🤲
  [0x1f970, 0x1f976], // 🥰 … 🥶
  [0x1f978, 0x1f97a], // 🥸 🥹 🥺
  [0x1f9d0, 0x1f9d0], // 🧐
  [0x1f9e1, 0x1f9e1], // 🧡
  [0x1fa75, 0x1fa77], // 🩵 🩶 🩷
  [0x1fae0, 0x1faf8], // 🫠 … 🫸 (faces and hands)
];

function isTone(emoji: string): boolean {
  const cp = emoji.codePointAt(0) ?? 0;
  return TONE_RANGES.some(([from, to]) => cp >= from && cp <= to);
}

/**
 * The words of each emoji in `text` ("🎾" -> tennis, sports, ...), emoji the table knows only;
 * emoji of tone (`TONE_RANGES`) have none.
 */
export function emojiWords(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(EMOJI)) {
    const key = match[0].replace(/[\uFE0E\uFE0F]/g, '');
    if (isTone(key)) continue;
    // A skin-toned or joined emoji the table lacks is read as its first pictograph.
    const words = emojiWordsTable().get(key) ?? emojiWordsTable().get([...key][0] ?? '');
    if (words) out.push(...words);
  }
  return out;
}

/**
 * The most frequent known word one edit (delete, swap, replace, insert) from `word` that keeps its
 * first letter (typing rarely gets the first letter wrong, and keeping it stops "ramen" -> "amen").
 */
export function nearestKnown(word: string, rank: Rank): string | undefined {
  let best: string | undefined;
  let bestRank = MAX_CORRECTION_RANK;
  const consider = (candidate: string) => {
    if (candidate[0] !== word[0]) return;
    const r = rank(candidate);
    if (r !== undefined && r < bestRank) {
      best = candidate;
      bestRank = r;
    }
  };
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    if (tail.length > 0) consider(head + tail.slice(1));
    if (tail.length > 1) consider(head + (tail[1] ?? '') + (tail[0] ?? '') + tail.slice(2));
    for (const ch of LETTERS) {
      if (tail.length > 0 && ch !== tail[0]) consider(head + ch + tail.slice(1));
      consider(head + ch + tail);
    }
  }
  return best;
}

/** "sooo" -> "so", "cooool" -> "cool": runs of three or more letters cut to one or two. */
function unstretched(word: string, rank: Rank): string | undefined {
  if (!/(\p{L})\1\1/u.test(word)) return undefined;
  const forms = [word.replace(/(\p{L})\1+/gu, '$1'), word.replace(/(\p{L})\1+/gu, '$1$1')];
  let best: string | undefined;
  let bestRank = Number.POSITIVE_INFINITY;
  for (const form of forms) {
    const r = rank(form);
    if (r !== undefined && r < bestRank) [best, bestRank] = [form, r];
  }
  return best;
}

/**
 * What a lower-case word token stands for when it is chat texture: an abbreviation's words, a
 * stretched word's plain form, or an unknown word's nearest known spelling; `[]` when the word is
 * known as written or nothing fits.
 */
export function readChatWord(
  word: string,
  vocabulary: Vocabulary,
  correct = true,
): readonly string[] {
  const listed = CHAT_ABBREVIATIONS.get(word);
  if (listed) return listed;
  if (vocabulary.known(word)) return [];
  const plain = unstretched(word, vocabulary.rank);
  if (plain) return [plain];
  if (!correct || word.length < MIN_CORRECTED_LENGTH || !/^[a-z]+$/.test(word)) return [];
  const near = nearestKnown(word, vocabulary.rank);
  return near ? [near] : [];
}

/**
 * `readChatWord` memoised per isolate: the same misspellings come back turn after turn. With
 * `correct` false it reads abbreviations and stretched words only.
 */
export function chatWordReader(
  vocabulary: Vocabulary,
  correct = true,
): (word: string) => readonly string[] {
  return boundedMemo(8192, (word: string) => readChatWord(word, vocabulary, correct), 262_144);
}
