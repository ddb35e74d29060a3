import { describe, expect, it } from 'vitest';
import { localPath, markTerms, sectionOf } from './search-results.ts';

describe('search results', () => {
  it('names a result’s section like the sidebar does', () => {
    expect(sectionOf('/docs/reference/memory/query-memory')).toBe('Memory API reference');
    expect(sectionOf('/docs/concepts/retrieval-modes')).toBe('Concepts');
    expect(sectionOf('/docs/quickstart')).toBe('Guides');
    expect(sectionOf('/blog/x')).toBe('Blog');
  });

  it('keeps only the path of the index’s absolute URLs', () => {
    expect(localPath('https://engram.example/docs/mcp#tools')).toBe('/docs/mcp#tools');
  });

  it('marks query terms case-insensitively without touching the rest', () => {
    expect(markTerms('Hybrid search fuses rankings', 'hybrid')).toEqual([
      { text: 'Hybrid', match: true },
      { text: ' search fuses rankings', match: false },
    ]);
    expect(markTerms('a.b', '.')).toEqual([{ text: 'a.b', match: false }]);
  });
});
