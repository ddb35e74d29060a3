import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { formatIssues } from '../lib/zod-report.ts';
import {
  BlogFrontmatter,
  DocFrontmatter,
  LearnFrontmatter,
  PageFrontmatter,
  SkillFrontmatter,
} from './content.ts';

function message(schema: z.ZodType, value: unknown): string {
  const r = schema.safeParse(value);
  return r.success ? '' : formatIssues('content/x.md', r.error.issues);
}

describe('content frontmatter', () => {
  it('accepts a page and keeps YAML dates as YYYY-MM-DD', () => {
    const r = PageFrontmatter.parse({
      title: 'Auth',
      description: 'Keys',
      updated: new Date('2026-11-18'),
    });
    expect(r.updated).toBe('2026-11-18');
  });

  it('rejects a date in another format, naming the field', () => {
    expect(
      message(PageFrontmatter, { title: 'A', description: 'B', updated: '18/11/2026' }),
    ).toMatch(/content\/x\.md: updated: date must be written YYYY-MM-DD/);
  });

  it('docs order is optional, learn order is required', () => {
    expect(
      DocFrontmatter.safeParse({ title: 'A', description: 'B', updated: '2026-01-01' }).success,
    ).toBe(true);
    expect(
      message(LearnFrontmatter, { title: 'A', description: 'B', updated: '2026-01-01' }),
    ).toMatch(/order/);
  });

  it('a blog post needs an author, a date and tags; updated is optional', () => {
    const post = {
      title: 'T',
      description: 'D',
      date: '2026-03-02',
      author: 'Ada',
      tags: ['memory'],
    };
    expect(BlogFrontmatter.parse(post).updated).toBeUndefined();
    expect(message(BlogFrontmatter, { ...post, author: undefined })).toMatch(/author/);
    expect(message(BlogFrontmatter, { ...post, tags: 'memory' })).toMatch(/tags: .*array/i);
  });

  it('a skill name is kebab-case', () => {
    expect(SkillFrontmatter.safeParse({ name: 'engram-memory', description: 'x' }).success).toBe(
      true,
    );
    expect(message(SkillFrontmatter, { name: 'Engram Memory', description: 'x' })).toMatch(
      /kebab-case/,
    );
  });
});
