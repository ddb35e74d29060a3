/**
 * Built-in documentation search over the site's twins: Okapi BM25 on the build-time search index
 * (dist/_agent/search-index.json). Pure: the index goes in, ranked results come out.
 */
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
  terms: Map<string, number>;
  length: number;
}

export interface Bm25Index {
  docs: IndexedDocument[];
  documentFrequency: Map<string, number>;
  averageLength: number;
}

const K1 = 1.2;
const B = 0.75;
/** A title hit counts like this many body hits: titles say what a page is about. */
const TITLE_WEIGHT = 3;
const SNIPPET_RADIUS = 80;

export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
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

export function buildIndex(documents: SearchDocument[]): Bm25Index {
  const documentFrequency = new Map<string, number>();
  let total = 0;
  const docs = documents.map((doc) => {
    const terms = new Map<string, number>();
    const add = (token: string, weight: number) =>
      terms.set(token, (terms.get(token) ?? 0) + weight);
    for (const token of tokenize(doc.title)) add(token, TITLE_WEIGHT);
    const plain = plainText(doc.text);
    const body = tokenize(plain);
    for (const token of body) add(token, 1);
    for (const term of terms.keys())
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    const length = body.length + TITLE_WEIGHT * tokenize(doc.title).length;
    total += length;
    return { doc, plain, terms, length };
  });
  return { docs, documentFrequency, averageLength: docs.length ? total / docs.length : 0 };
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

export function search(index: Bm25Index, query: string, limit: number): SearchResult[] {
  const terms = [...new Set(tokenize(query))];
  if (terms.length === 0) return [];
  const scored: { entry: IndexedDocument; score: number }[] = [];
  for (const entry of index.docs) {
    let score = 0;
    for (const term of terms) {
      const tf = entry.terms.get(term) ?? 0;
      if (tf === 0) continue;
      const norm = K1 * (1 - B + (B * entry.length) / (index.averageLength || 1));
      score += idf(index, term) * ((tf * (K1 + 1)) / (tf + norm));
    }
    if (score > 0) scored.push({ entry, score });
  }
  scored.sort((a, b) => b.score - a.score || a.entry.doc.url.localeCompare(b.entry.doc.url));
  return scored.slice(0, limit).map(({ entry, score }) => ({
    title: entry.doc.title,
    url: entry.doc.url,
    markdown_url: entry.doc.markdownUrl,
    snippet: snippetAround(entry.plain, terms),
    score: Math.round(score * 1000) / 1000,
  }));
}
