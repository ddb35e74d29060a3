import { describe, expect, it } from 'vitest';
import { buildIndex, plainText, search, snippetAround, tokenize } from './docs-search.ts';

const DOCS = [
  {
    title: 'Hybrid search',
    url: '/learn/memory-basics/retrieval/hybrid-search',
    markdownUrl: '/learn/memory-basics/retrieval/hybrid-search.md',
    text: 'Hybrid search fuses BM25 and vector rankings with Reciprocal Rank Fusion (k = 60).',
  },
  {
    title: 'Pricing',
    url: '/pricing',
    markdownUrl: '/pricing.md',
    text: 'Cloud tiers, self-hosted and support plans. The calculator gives a monthly total.',
  },
  {
    title: 'BM25 search',
    url: '/learn/memory-basics/retrieval/bm25-search',
    markdownUrl: '/learn/memory-basics/retrieval/bm25-search.md',
    text: 'FTS5 with the porter tokenizer ranks facts by BM25. BM25 rewards rare terms.',
  },
];

describe('built-in docs search (BM25)', () => {
  const index = buildIndex(DOCS);

  it('tokenizes on letters and digits, lower-cased', () => {
    expect(tokenize('Reciprocal Rank-Fusion (k = 60)')).toEqual([
      'reciprocal',
      'rank',
      'fusion',
      'k',
      '60',
    ]);
  });

  it('ranks the page about a term first and leaves unrelated pages out', () => {
    const results = search(index, 'bm25', 10);
    expect(results.map((r) => r.url)).toEqual([
      '/learn/memory-basics/retrieval/bm25-search',
      '/learn/memory-basics/retrieval/hybrid-search',
    ]);
    expect(results[0]?.score).toBeGreaterThan(results[1]?.score ?? Infinity);
    expect(results[0]?.markdown_url).toBe('/learn/memory-basics/retrieval/bm25-search.md');
  });

  it('honours the limit and returns nothing for unknown words', () => {
    expect(search(index, 'search', 1)).toHaveLength(1);
    expect(search(index, 'zebra', 10)).toEqual([]);
    expect(search(index, '   ', 10)).toEqual([]);
  });

  it('strips markdown syntax from what it indexes and quotes', () => {
    expect(
      plainText(
        '# Title\n\nSee [the docs](/docs) and **bold** `code`.\n\n| a | b |\n| --- | --- |\n| 1 | 2 |',
      ),
    ).toBe('Title See the docs and bold code . a b 1 2');
    const md = buildIndex([
      {
        title: 'T',
        url: '/t',
        markdownUrl: '/t.md',
        text: '## Usage\n\nCall [recall](/docs/api/query).',
      },
    ]);
    expect(search(md, 'recall', 1)[0]?.snippet).toBe('Usage Call recall.');
  });

  it('cuts a snippet around the first hit', () => {
    const text = `${'lorem '.repeat(40)}the calculator gives a total ${'ipsum '.repeat(40)}`;
    const snippet = snippetAround(text, ['calculator']);
    expect(snippet).toContain('calculator');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.length).toBeLessThan(200);
  });

  describe('ranking boosts', () => {
    const page = (url: string, title: string, text: string) => ({
      title,
      url,
      markdownUrl: `${url}.md`,
      text,
    });
    const filler = 'memory service notes. '.repeat(30);
    const docs = buildIndex([
      page('/docs/api/overview', 'API overview', `${filler}\n\n## Rate limits: 429\n\nWait.`),
      page('/docs/guide', 'Guide', `${filler} the rate of requests has a limit.`),
      page('/learn/modes', 'Retrieval modes', 'Each mode of retrieval, explained.'),
      page('/docs/concepts/modes', 'Modes of retrieval', 'Each mode of retrieval, in the docs.'),
      page('/docs/reference/x', 'Get session', 'Responses: 429 rate limit reached.'),
    ]);

    it('stems, so "modes" and "mode" meet, and drops stop words of questions', () => {
      expect(search(docs, 'how do I choose modes', 5).length).toBeGreaterThan(0);
      expect(search(docs, 'mode', 5).map((r) => r.url)).toContain('/learn/modes');
    });

    it('puts a page whose heading holds the query before one that only mentions its words', () => {
      const urls = search(docs, 'rate limit', 5).map((r) => r.url);
      expect(urls.indexOf('/docs/api/overview')).toBeLessThan(urls.indexOf('/docs/guide'));
    });

    it('weighs generated reference pages less unless their title matches', () => {
      const urls = search(docs, 'rate limit', 5).map((r) => r.url);
      expect(urls.indexOf('/docs/api/overview')).toBeLessThan(urls.indexOf('/docs/reference/x'));
      expect(search(docs, 'get an api session', 5)[0]?.url).toBe('/docs/reference/x');
    });

    it('lists docs before Learn and blog pages for a reader in /docs only', () => {
      expect(search(docs, 'retrieval modes', 5)[0]?.url).toBe('/learn/modes');
      const inDocs = search(docs, 'retrieval modes', 5, { from: '/docs/quickstart' });
      expect(inDocs.map((r) => r.url)).toEqual(['/docs/concepts/modes', '/learn/modes']);
    });
  });
});
