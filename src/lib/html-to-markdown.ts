import type { Element, ElementContent, Root, RootContent } from 'hast';
import rehypeParse from 'rehype-parse';
import rehypeRemark from 'rehype-remark';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';

/**
 * HTML -> CommonMark (GFM tables allowed) for the markdown twins:
 * rehype-parse -> (main only, links resolved, code languages) -> rehype-remark -> remark-gfm ->
 * remark-stringify. Only the page's `<main>` is converted, so navigation and footers stay out.
 */
export interface HtmlToMarkdownOptions {
  /** Absolute URL of the page the HTML belongs to; relative links resolve against it. */
  pageUrl?: string;
}

/**
 * Elements that carry no reading content for an agent. A page can also mark an interactive
 * block `data-markdown="skip"` when it states the same facts in text beside it.
 */
const DROP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'button', 'select']);

/** Keeps only the children of the first `<main>`, when the document has one. */
export function rehypeMainOnly() {
  return (tree: Root): void => {
    const main = findElement(tree, (el) => el.tagName === 'main');
    if (main) tree.children = main.children as RootContent[];
  };
}

/**
 * Resolves `href` and `src` against the page URL: same-origin targets become root-relative
 * (`/docs/x#y`), other origins stay absolute, and `mailto:`-style links are left alone.
 */
export function rehypeResolveLinks() {
  return (tree: Root, file: { data: object }): void => {
    const pageUrl = 'pageUrl' in file.data ? file.data.pageUrl : undefined;
    const base = typeof pageUrl === 'string' ? new URL(pageUrl) : undefined;
    walk(tree, (el) => {
      for (const attr of ['href', 'src'] as const) {
        const value = el.properties[attr];
        if (typeof value === 'string') el.properties[attr] = resolveUrl(value, base);
      }
    });
  };
}

export function resolveUrl(value: string, base: URL | undefined): string {
  if (!base) return value;
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return value;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return value;
  if (url.origin !== base.origin) return url.href;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Drops elements that have no reading content, then moves a code block's language to
 * `code.language-x`, where rehype-remark reads it. Astro's highlighter puts it on
 * `<pre data-language="x">`; hand-written HTML puts it on `<code>`.
 */
export function rehypeCodeLanguage() {
  return (tree: Root): void => {
    prune(tree);
    walk(tree, (el) => {
      if (el.tagName !== 'pre') return;
      const code = el.children.find(
        (c): c is Element => c.type === 'element' && c.tagName === 'code',
      );
      const lang = el.properties.dataLanguage;
      if (!code || typeof lang !== 'string' || lang === 'plaintext') return;
      const classes = Array.isArray(code.properties.className) ? code.properties.className : [];
      if (!classes.some((c) => String(c).startsWith('language-'))) {
        code.properties.className = [...classes.map(String), `language-${lang}`];
      }
    });
  };
}

/** Removes, at any depth, the elements that carry no reading content. */
function prune(node: Root | Element): void {
  node.children = node.children.filter(
    (c) =>
      !(
        c.type === 'element' &&
        (DROP.has(c.tagName) ||
          c.properties.hidden !== undefined ||
          c.properties.dataMarkdown === 'skip')
      ),
  ) as typeof node.children;
  for (const child of node.children) if (child.type === 'element') prune(child);
}

function walk(node: Root | Element, visit: (el: Element) => void): void {
  for (const child of node.children) {
    if (child.type === 'element') {
      visit(child);
      walk(child, visit);
    }
  }
}

function findElement(node: Root | Element, test: (el: Element) => boolean): Element | undefined {
  for (const child of node.children as (RootContent | ElementContent)[]) {
    if (child.type !== 'element') continue;
    if (test(child)) return child;
    const inner = findElement(child, test);
    if (inner) return inner;
  }
  return undefined;
}

// One frozen processor for every page; the page URL travels on the file (`file.data.pageUrl`).
const processor = unified()
  .use(rehypeParse, { fragment: false })
  .use(rehypeMainOnly)
  .use(rehypeCodeLanguage)
  .use(rehypeResolveLinks)
  .use(rehypeRemark)
  .use(remarkGfm)
  .use(remarkStringify, { bullet: '-', fences: true, rule: '-', emphasis: '_' })
  .freeze();

/** Converts an HTML page (or fragment) to CommonMark; only `<main>` when there is one. */
export function htmlToMarkdown(html: string, options: HtmlToMarkdownOptions = {}): string {
  return String(processor.processSync({ value: html, data: { pageUrl: options.pageUrl } }));
}
