import { describe, expect, it } from 'vitest';
import { contentPrior, PRIOR_HALF } from './content-prior.ts';

describe('content prior', () => {
  it('lets a turn that tells something keep more of its score than small talk', () => {
    const chat = contentPrior('Maya: Hmm, tell me more.', 's1');
    const news = contentPrior(
      'Maya: Glazed my first bowl at the pottery studio, it is lopsided and I adore it.',
      's1',
    );
    expect(chat).toBeCloseTo(4 / 7); // hmm, tell, me, more: 4 / (4 + 3)
    expect(news).toBeCloseTo(8 / 11); // eight content words
    expect(news).toBeGreaterThan(chat);
  });

  it('counts content words, not the speaker prefix or stop words', () => {
    const words = 3; // hmm, tell, more
    expect(contentPrior('Maya: Hmm, tell more.', 's1')).toBeCloseTo(words / (words + PRIOR_HALF));
    expect(contentPrior('Hmm, tell more.', 's1')).toBeCloseTo(words / (words + PRIOR_HALF));
    expect(contentPrior('Maya: the of and', 's1')).toBe(0);
  });

  it('leaves items that are not conversation turns as they are', () => {
    expect(contentPrior('Dana works from Oslo', null)).toBe(1);
    // A `Name: text` item is a turn even without a session label.
    expect(contentPrior('Maya: Hmm.', null)).toBeCloseTo(1 / (1 + PRIOR_HALF));
  });
});
