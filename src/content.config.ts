import { defineCollection } from 'astro/content/config';
import { glob } from 'astro/loaders';
import { CONTENT_ROOT } from './lib/content-root.ts';
import {
  BlogFrontmatter,
  DocFrontmatter,
  LearnFrontmatter,
  PageFrontmatter,
  SkillFrontmatter,
} from './schemas/content.ts';

/**
 * Collections over the top-level content/ folder. Ids are the file path without its extension
 * (`api/facts`, `memory-basics/retrieval/index`) so src/lib/content-routes.ts maps them to URLs
 * in one place, the same way for pages and for the build integration.
 */
const pathId = ({ entry }: { entry: string }): string => entry.replace(/\.(md|mdx)$/, '');

export const collections = {
  pages: defineCollection({
    loader: glob({ pattern: '*.mdx', base: `${CONTENT_ROOT}/pages`, generateId: pathId }),
    schema: PageFrontmatter,
  }),
  docs: defineCollection({
    loader: glob({ pattern: '**/*.mdx', base: `${CONTENT_ROOT}/docs`, generateId: pathId }),
    schema: DocFrontmatter,
  }),
  blog: defineCollection({
    loader: glob({ pattern: '*.md', base: `${CONTENT_ROOT}/blog`, generateId: pathId }),
    schema: BlogFrontmatter,
  }),
  learn: defineCollection({
    loader: glob({ pattern: '**/*.md', base: `${CONTENT_ROOT}/learn`, generateId: pathId }),
    schema: LearnFrontmatter,
  }),
  skills: defineCollection({
    loader: glob({ pattern: '*/SKILL.md', base: `${CONTENT_ROOT}/skills`, generateId: pathId }),
    schema: SkillFrontmatter,
  }),
};
