/**
 * Built-in documentation search over the site's twins: Okapi BM25 on the build-time search index
 * (dist/_agent/search-index.json). Pure: the index goes in, ranked results come out.
 */
import { stemmer } from 'stemmer';
import type { SearchDocument } from '../../src/lib/agent-manifest.ts';

export interface SearchResult {
  title: string;
  url: string;
  markdown_url: string;
  snippet: string;
  score: number;
}

interface IndexedDocument {
  doc: SearchDocument;
  /** The document's text without markdown syntax: what snippets are cut from. */
  plain: string;
  /** Stemmed term -> weighted frequency (title and heading words count more). */
  terms: Map<string, number>;
  length: number;
  titleTerms: Set<string>;
  /** Each heading's stemmed terms: a query whose words share one heading names that section. */
  headings: Set<string>[];
  path: string;
}

export interface Bm25Index {
  docs: IndexedDocument[];
  documentFrequency: Map<string, number>;
  averageLength: number;
}

const K1 = 1.2;
const B = 0.75;
/** A title hit counts like this many body hits: titles say what a page is about. */
const TITLE_WEIGHT = 4;
/** A heading hit (on top of its body occurrence): headings say what a section is about. */
const HEADING_WEIGHT = 2;
/** Score multiplier per share of the query's terms found in the title, and in one heading. */
const TITLE_BOOST = 1.5;
const HEADING_BOOST = 0.6;
/**
 * Generated pages (one per operation or problem type) repeat the same response and error
 * boilerplate, so a word like "limit" is on fifty of them; they count less unless their title
 * matches, and a guide that explains the topic comes first.
 */
const GENERATED = /^\/(docs\/reference|errors)\//;
const GENERATED_WEIGHT = 0.6;
/** The opening words say what a page is about: they count this much extra. */
const LEAD_WORDS = 60;
const LEAD_WEIGHT = 1;
const SNIPPET_RADIUS = 80;

/**
 * Words that say nothing about a page ("how do I delete a fact" is about delete and fact),
 * generic verbs of questions included: "get an API key" is about API keys, not the Get
 * operations.
 */
const STOPWORDS = new Set(
  'a an and are as at be by can do does for from get how i in is it make my need of on or so some something that the this thing to use want way what when where which why with you your'.split(
    ' ',
  ),
);

export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Terms as the index keys them: Porter stems, so "modes" finds "mode" and "limited" "limit". */
function stems(text: string): string[] {
  return tokenize(text).map((t) => stemmer(t));
}

/** The query's terms without stop words (unless the query is nothing but stop words). */
function queryTokens(query: string): string[] {
  const all = [...new Set(tokenize(query))];
  const kept = all.filter((t) => !STOPWORDS.has(t));
  return kept.length > 0 ? kept : all;
}

/** Markdown to readable text: link targets, heading marks, emphasis and table pipes removed. */
export function plainText(markdown: string): string {
  return markdown
    .replaceAll(/^(```|~~~).*$/gm, '')
    .replaceAll(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replaceAll(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+|\d+\.\s+)/gm, '')
    .replaceAll(/^\|?[\s:|-]+\|?$/gm, '')
    .replaceAll(/[*_`|]+/g, ' ')
    .replaceAll(/\s+/g, ' ')
    .trim();
}

function headingsOf(markdown: string): Set<string>[] {
  return [...markdown.matchAll(/^#{2,4}\s+(.+)$/gm)].map((m) => new Set(stems(m[1] ?? '')));
}

export function buildIndex(documents: SearchDocument[]): Bm25Index {
  const documentFrequency = new Map<string, number>();
  let total = 0;
  const docs = documents.map((doc) => {
    const terms = new Map<string, number>();
    const add = (token: string, weight: number) =>
      terms.set(token, (terms.get(token) ?? 0) + weight);
    const title = stems(doc.title);
    for (const token of title) add(token, TITLE_WEIGHT);
    const headings = headingsOf(doc.text);
    for (const heading of headings) for (const token of heading) add(token, HEADING_WEIGHT);
    const plain = plainText(doc.text);
    const body = stems(plain);
    for (const token of body) add(token, 1);
    for (const token of body.slice(0, LEAD_WORDS)) add(token, LEAD_WEIGHT);
    for (const term of terms.keys())
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    const length = body.length + TITLE_WEIGHT * title.length;
    total += length;
    return {
      doc,
      plain,
      terms,
      length,
      titleTerms: new Set(title),
      headings,
      path: pathOf(doc.url),
    };
  });
  return { docs, documentFrequency, averageLength: docs.length ? total / docs.length : 0 };
}

function pathOf(url: string): string {
  try {
    return new URL(url, 'https://x.invalid').pathname;
  } catch {
    return url;
  }
}

function idf(index: Bm25Index, term: string): number {
  const n = index.docs.length;
  const df = index.documentFrequency.get(term) ?? 0;
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** About 160 characters of the text around the first occurrence of any query term. */
export function snippetAround(text: string, terms: string[]): string {
  const flat = text.replaceAll(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  let at = -1;
  for (const term of terms) {
    const found = lower.search(new RegExp(`(?<![\\p{L}\\p{N}])${term}`, 'u'));
    if (found >= 0 && (at < 0 || found < at)) at = found;
  }
  if (at < 0) at = 0;
  const start = Math.max(0, at - SNIPPET_RADIUS);
  const end = Math.min(flat.length, at + SNIPPET_RADIUS);
  return `${start > 0 ? '…' : ''}${flat.slice(start, end).trim()}${end < flat.length ? '…' : ''}`;
}

export interface SearchOptions {
  /** The path the reader searches from: in /docs, docs pages rank before Learn and blog. */
  from?: string;
}

/** How much of the query (each term weighted by its idf: rare words matter more) `terms` holds. */
function share(index: Bm25Index, query: string[], terms: Set<string>): number {
  let all = 0;
  let found = 0;
  for (const term of query) {
    const weight = idf(index, term);
    all += weight;
    if (terms.has(term)) found += weight;
  }
  return all > 0 ? found / all : 0;
}

export function search(
  index: Bm25Index,
  query: string,
  limit: number,
  options: SearchOptions = {},
): SearchResult[] {
  const words = queryTokens(query);
  const terms = [...new Set(words.map((w) => stemmer(w)))];
  if (terms.length === 0) return [];
  const inDocs = options.from === '/docs' || options.from?.startsWith('/docs/') === true;
  const scored: { entry: IndexedDocument; score: number }[] = [];
  for (const entry of index.docs) {
    let score = 0;
    for (const term of terms) {
      const tf = entry.terms.get(term) ?? 0;
      if (tf === 0) continue;
      const norm = K1 * (1 - B + (B * entry.length) / (index.averageLength || 1));
      score += idf(index, term) * ((tf * (K1 + 1)) / (tf + norm));
    }
    if (score === 0) continue;
    const inTitle = share(index, terms, entry.titleTerms);
    score *= 1 + TITLE_BOOST * inTitle;
    if (inTitle < 0.5 && GENERATED.test(entry.path)) score *= GENERATED_WEIGHT;
    const bestHeading = Math.max(0, ...entry.headings.map((h) => share(index, terms, h)));
    score *= 1 + HEADING_BOOST * bestHeading;
    scored.push({ entry, score });
  }
  // A reader in /docs gets the docs first: Learn and blog pages follow every other hit.
  const later = (e: IndexedDocument) => (inDocs && /^\/(learn|blog)(\/|$)/.test(e.path) ? 1 : 0);
  scored.sort(
    (a, b) =>
      later(a.entry) - later(b.entry) ||
      b.score - a.score ||
      a.entry.doc.url.localeCompare(b.entry.doc.url),
  );
  return scored.slice(0, limit).map(({ entry, score }) => ({
    title: entry.doc.title,
    url: entry.doc.url,
    markdown_url: entry.doc.markdownUrl,
    snippet: snippetAround(entry.plain, words),
    score: Math.round(score * 1000) / 1000,
  }));
}
