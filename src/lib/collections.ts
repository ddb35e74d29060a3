import { getCollection } from 'astro:content';
import type {
  BlogFrontmatter,
  DocFrontmatter,
  LearnFrontmatter,
  PageFrontmatter,
} from '../schemas/content.ts';

/**
 * Typed, sorted access to the content collections for the pages. Empty collections are fine:
 * the content may not be written yet, and the index pages then say so.
 */
export interface Entry<T> {
  id: string;
  data: T;
  body?: string;
}

export async function docsEntries(): Promise<Entry<DocFrontmatter>[]> {
  const all = (await getCollection('docs')) as Entry<DocFrontmatter>[];
  return all.sort(
    (a, b) => (a.data.order ?? 1000) - (b.data.order ?? 1000) || a.id.localeCompare(b.id),
  );
}

export async function blogEntries(): Promise<Entry<BlogFrontmatter>[]> {
  const all = (await getCollection('blog')) as Entry<BlogFrontmatter>[];
  // Newest first, then by slug so equal dates keep a stable order.
  return all.sort((a, b) => b.data.date.localeCompare(a.data.date) || a.id.localeCompare(b.id));
}

export async function learnEntries(): Promise<Entry<LearnFrontmatter>[]> {
  const all = (await getCollection('learn')) as Entry<LearnFrontmatter>[];
  return all.sort((a, b) => a.data.order - b.data.order || a.id.localeCompare(b.id));
}

export async function pageEntries(): Promise<Entry<PageFrontmatter>[]> {
  return (await getCollection('pages')) as Entry<PageFrontmatter>[];
}
