/** What /api/docs/search answers (functions/site/search-route.ts), and how the dialog shows it. */
export interface SearchHit {
  title: string;
  url: string;
  markdown_url: string;
  snippet: string;
  score: number;
}

/** The section a result belongs to, named like the sidebar groups. */
export { sectionOf } from '../lib/page-section.ts';

/**
 * A result's path on this origin: the index stores absolute URLs under the configured SITE_URL,
 * which is not where a local or preview deployment is served from.
 */
export function localPath(url: string): string {
  const parsed = new URL(url, 'https://placeholder.invalid');
  return `${parsed.pathname}${parsed.hash}`;
}

/** Splits a snippet into plain and matched parts, so the query terms can be marked safely. */
export function markTerms(snippet: string, query: string): { text: string; match: boolean }[] {
  const terms: string[] = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (terms.length === 0) return [{ text: snippet, match: false }];
  const escaped = terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const re = new RegExp(`(${escaped.join('|')})`, 'giu');
  return snippet
    .split(re)
    .filter((part) => part !== '')
    .map((part) => ({ text: part, match: terms.includes(part.toLowerCase()) }));
}
