import { z } from 'zod';

/** Frontmatter schemas of the content collections (src/content.config.ts). */

/** A calendar date written YYYY-MM-DD; kept as a string so lastmod never drifts by time zone. */
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be written YYYY-MM-DD')
  .describe('Calendar date, YYYY-MM-DD.');

/** Coerces YAML dates (which parse to Date) back to YYYY-MM-DD. */
const dateField = z.preprocess(
  (v) => (v instanceof Date ? v.toISOString().slice(0, 10) : v),
  isoDate,
);

export const PageFrontmatter = z.object({
  /** H1 and <title> of the page. */
  title: z.string().min(1).describe('H1 and <title> of the page.'),
  /** Meta description, also the llms.txt note. */
  description: z.string().min(1).describe('Meta description; also the llms.txt note.'),
  /** Last change of the content: the page's sitemap lastmod. */
  updated: dateField.describe('Last change of the content; the sitemap lastmod.'),
});

export const DocFrontmatter = PageFrontmatter.extend({
  /** Position among its siblings in the docs navigation (lower first). */
  order: z.number().optional().describe('Position among siblings, lower first.'),
});

export const BlogFrontmatter = z.object({
  title: z.string().min(1).describe('Post title; the body repeats it as its own H1.'),
  description: z.string().min(1).describe('Summary shown in the index and llms.txt.'),
  /** Publication date. */
  date: dateField.describe('Publication date.'),
  /** Last edit, when the post changed after publication. */
  updated: dateField.optional().describe('Last edit after publication.'),
  author: z.string().min(1).describe('Author name.'),
  tags: z.array(z.string()).describe('Topic tags.'),
});

export const LearnFrontmatter = PageFrontmatter.extend({
  /** Position among its siblings (courses, modules or lessons). */
  order: z.number().describe('Position among siblings, lower first.'),
});

export const SkillFrontmatter = z.object({
  /** Kebab-case skill name, equal to its folder. */
  name: z
    .string()
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'skill name must be kebab-case')
    .describe('Kebab-case skill name, equal to its folder.'),
  description: z.string().min(1).describe('What the skill does and when to use it.'),
});

export type PageFrontmatter = z.infer<typeof PageFrontmatter>;
export type DocFrontmatter = z.infer<typeof DocFrontmatter>;
export type BlogFrontmatter = z.infer<typeof BlogFrontmatter>;
export type LearnFrontmatter = z.infer<typeof LearnFrontmatter>;
