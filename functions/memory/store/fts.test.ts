import { describe, expect, it } from 'vitest';
import { analyseQueryWords } from '../retrieval/text-analysis.ts';
import { ftsQuery } from './fts.ts';

describe('ftsQuery', () => {
  it('quotes each query word and ORs them, question words dropped', () => {
    expect(ftsQuery('who reviews the roadmap in Osaka')).toBe('"reviews" OR "roadmap" OR "osaka"');
  });

  it('keeps one phrase per Porter stem, so a lemma that stems like its word does not count it twice', () => {
    // FTS5's porter tokenizer stems "reviews" and "review" alike: two phrases would double the
    // word's share of every row's bm25 score, and make FTS5 read its postings twice.
    expect(ftsQuery('who reviews the billing roadmap', ['review', 'bill', 'qaperson'])).toBe(
      '"reviews" OR "billing" OR "roadmap" OR "qaperson"',
    );
  });

  it('keeps a lemma whose stem differs from the written word (irregular forms)', () => {
    expect(ftsQuery('who swam in the lake', ['swim'])).toBe('"swam" OR "lake" OR "swim"');
  });

  it('gets from the query analysis one phrase per stem, and the lemma of an irregular form', () => {
    // The analysis adds "review" for "reviews" (the lexicon lists it); the match keeps one.
    const reviews = 'Who reviews the billing roadmap in Osaka?';
    expect(ftsQuery(reviews, analyseQueryWords(reviews))).toBe(
      '"reviews" OR "billing" OR "roadmap" OR "osaka"',
    );
    const children = 'What did the children bring to the picnic?';
    expect(ftsQuery(children, analyseQueryWords(children))).toBe(
      '"children" OR "bring" OR "picnic" OR "child"',
    );
  });

  it('escapes quotes and gives no match for a question of stop words only', () => {
    expect(ftsQuery('the "quoted" word')).toBe('"quoted" OR "word"');
    expect(ftsQuery('who is it')).toBeNull();
  });
});
