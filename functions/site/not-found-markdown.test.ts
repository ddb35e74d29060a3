import { describe, expect, it } from 'vitest';
import { notFoundMarkdown, SITE_INDEXES } from './not-found-markdown.ts';

describe('markdown 404 text', () => {
  it('begins with a level-one heading and names every index', () => {
    const text = notFoundMarkdown('/nope.md');
    expect(text.startsWith('# Not found\n')).toBe(true);
    for (const index of [
      '/llms.txt',
      '/sitemap.xml',
      '/openapi.json',
      '/.well-known/api-catalog',
    ]) {
      expect(text).toContain(`](${index})`);
    }
    expect(SITE_INDEXES).toHaveLength(4);
    expect(text).toContain('`/nope.md`');
  });

  it('keeps a hostile path inside its code span', () => {
    const text = notFoundMarkdown('/a`b\n# injected');
    expect(text).toContain('`/a%60b# injected`');
    expect(text.split('\n').filter((line) => line.startsWith('# '))).toEqual(['# Not found']);
  });
});
