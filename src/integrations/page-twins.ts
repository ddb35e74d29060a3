import { readFile } from 'node:fs/promises';
import { htmlToMarkdown } from '../lib/html-to-markdown.ts';
import type { SitePage } from './site-pages.ts';

/** A page with its markdown twin. */
export interface TwinnedPage extends SitePage {
  markdown: string;
}

/** `/blog/<slug>` pages are twinned from their authored source, not their HTML. */
const BLOG_POST = /^\/blog\/([^/]+)$/;

/** The authored body of a markdown file: frontmatter and the blank lines after it removed. */
export function authoredBody(source: string): string {
  return source.replace(/^---\r?\n[\s\S]*?\r?\n---[ \t]*(\r?\n|$)/, '').replace(/^(\s*\r?\n)+/, '');
}

export async function twinFor(page: SitePage, site: string, contentRoot: string): Promise<string> {
  const post = BLOG_POST.exec(page.path);
  if (post) {
    const file = `${contentRoot}/blog/${post[1]}.md`;
    return authoredBody(await readFile(file, 'utf8'));
  }
  return htmlToMarkdown(page.html, { pageUrl: new URL(page.path, site).href });
}

/** Fails the build naming the page when its twin does not open with a level-one heading. */
export function checkTwin(page: SitePage, markdown: string): void {
  if (!markdown.startsWith('# ')) {
    const start = JSON.stringify(markdown.slice(0, 60));
    throw new Error(
      `Twin ${page.twin} of page ${page.path} must begin with a level-one heading ("# "), but begins ${start}. Give the page an <h1> as the first element of <main> (blog posts: start the body with "# <title>").`,
    );
  }
}

export async function makeTwins(
  pages: readonly SitePage[],
  site: string,
  contentRoot: string,
): Promise<TwinnedPage[]> {
  return Promise.all(
    pages.map(async (page) => {
      const markdown = await twinFor(page, site, contentRoot);
      checkTwin(page, markdown);
      return { ...page, markdown };
    }),
  );
}
