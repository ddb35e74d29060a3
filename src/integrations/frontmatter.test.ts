import { describe, expect, it } from 'vitest';
import { readFrontmatter } from './frontmatter.ts';

describe('readFrontmatter', () => {
  it('reads plain, double-quoted and single-quoted values', () => {
    const src = `---\nname: engram-memory\ndescription: "Store: and \\"recall\\""\nother: 'it''s'\n---\n# Body\n`;
    expect(readFrontmatter(src)).toEqual({
      name: 'engram-memory',
      description: 'Store: and "recall"',
      other: "it's",
    });
  });

  it('folds `>` blocks into one line and keeps `|` blocks', () => {
    const src =
      '---\nname: x\ndescription: >\n  Use this skill\n  to remember.\nnotes: |\n  a\n  b\nafter: y\n---\n';
    expect(readFrontmatter(src)).toEqual({
      name: 'x',
      description: 'Use this skill to remember.',
      notes: 'a\nb',
      after: 'y',
    });
  });

  it('returns nothing without frontmatter', () => {
    expect(readFrontmatter('# Just a body\n')).toEqual({});
  });
});
