import { describe, expect, it } from 'vitest';
import { emojiWords, nearestKnown, readChatWord, type Vocabulary } from './chat-texture.ts';

// A small vocabulary in frequency order, standing in for the word-vector table's.
const WORDS = ['the', 'so', 'cool', 'tennis', 'tenner', 'love', 'portuguese', 'amen', 'ten'];
const vocabulary: Vocabulary = {
  rank: (word) => {
    const i = WORDS.indexOf(word);
    return i < 0 ? undefined : i;
  },
  known: (word) =>
    WORDS.includes(word) || (word.endsWith('s') && WORDS.includes(word.slice(0, -1))),
};

describe('emoji read as words', () => {
  it('reads an emoji as the words of its name and keywords', () => {
    expect(emojiWords('match today 🎾')).toContain('tennis');
    expect(emojiWords('🍜 for lunch')).toContain('noodle');
  });

  it('reads an emoji with or without its variation selector, and a skin tone as the base', () => {
    expect(emojiWords('✈️')).toEqual(emojiWords('✈'));
    expect(emojiWords('✈️')).toContain('airplane');
    expect(emojiWords('🏊🏽')).toContain('swimming');
  });

  it('reads emoji of tone as nothing, and the things beside them as their words', () => {
    // Faces, hearts, gestures and the intensifiers end messages whatever they are about.
    for (const tone of [
      '😂',
      '😭',
      '❤️',
      '🙏',
      '😩',
      '🔥',
      '✨',
      '👀',
      '🙈',
      '🥲',
      '💀',
      '👍🏽',
      '🤣',
      '💯',
    ])
      expect(emojiWords(`cello practice ran late ${tone}`)).toEqual([]);
    expect(emojiWords('scored twice 🔥⚽')).toContain('soccer');
    expect(emojiWords('new 📱 finally 😭')).toContain('phone');
  });

  it('reads no words from text without emoji', () => {
    expect(emojiWords('plain words, 100% text')).toEqual([]);
  });
});

describe('chat words read back', () => {
  it('expands listed abbreviations, known or not', () => {
    expect(readChatWord('tmrw', vocabulary)).toEqual(['tomorrow']);
    expect(readChatWord('u', vocabulary)).toEqual(['you']);
    expect(readChatWord('idk', vocabulary)).toEqual(['i', 'do', 'not', 'know']);
  });

  it('leaves a known word, or its inflection, as written', () => {
    expect(readChatWord('tennis', vocabulary)).toEqual([]);
    expect(readChatWord('loves', vocabulary)).toEqual([]);
  });

  it('cuts a stretched word to its known form', () => {
    expect(readChatWord('sooo', vocabulary)).toEqual(['so']);
    expect(readChatWord('cooooool', vocabulary)).toEqual(['cool']);
  });

  it('corrects an unknown word to the most frequent known word one edit away', () => {
    expect(readChatWord('tenis', vocabulary)).toEqual(['tennis']);
    expect(readChatWord('portugese', vocabulary)).toEqual(['portuguese']);
    expect(readChatWord('tennsi', vocabulary)).toEqual(['tennis']);
  });

  it('corrects no spelling when asked for abbreviations and stretched words only', () => {
    expect(readChatWord('tenis', vocabulary, false)).toEqual([]);
    expect(readChatWord('tmrw', vocabulary, false)).toEqual(['tomorrow']);
    expect(readChatWord('sooo', vocabulary, false)).toEqual(['so']);
  });

  it('keeps the first letter and leaves short or far words alone', () => {
    expect(nearestKnown('ramen', vocabulary.rank)).toBeUndefined();
    expect(readChatWord('tem', vocabulary)).toEqual([]);
    expect(readChatWord('xylophone', vocabulary)).toEqual([]);
  });
});
