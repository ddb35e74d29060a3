import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildEmojiWords, OUTPUT } from '../../scripts/chat-texture/build-emoji-words.ts';

// The committed emoji table is a build artefact: exactly what the build script derives from the
// pinned `emojilib` package (regenerate with `node scripts/chat-texture/build-emoji-words.ts`,
// then re-measure recall).
describe('emoji-words.generated.ts', () => {
  it('is byte for byte what scripts/chat-texture/build-emoji-words.ts derives from emojilib', () => {
    expect(buildEmojiWords() === readFileSync(OUTPUT, 'utf8')).toBe(true);
  });

  it('stays small enough to ship in the Worker bundle', () => {
    expect(readFileSync(OUTPUT, 'utf8').length).toBeLessThan(100_000);
  });
});
