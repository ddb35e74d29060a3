/**
 * The contract between the build (src/integrations) and the Worker (functions/site): a JSON file
 * written into dist/ that the Worker reads through the ASSETS binding. The Worker never serves
 * the `/_agent/` prefix to the public.
 */
export const AGENT_PREFIX = '/_agent/';
export const MANIFEST_PATH = '/_agent/manifest.json';
export const SEARCH_INDEX_PATH = '/_agent/search-index.json';

export interface PageEntry {
  /** Page path without extension: `/`, `/pricing`, `/learn/memory-basics/retrieval`. */
  path: string;
  /** Its twin: `/index.md`, `/pricing.md`. */
  twin: string;
  title: string;
  description: string;
  /** First path segment, or `home`: the sitemap and llms.txt section. */
  section: string;
  /** o200k_base token count of the twin's bytes. */
  markdownTokens: number;
  /** o200k_base token count of the full HTML page. */
  originalTokens: number;
  /** ISO date of the content's own date or last change. */
  lastmod: string;
}

export interface AgentManifest {
  /** Tokenizer used for every count. */
  tokenizer: 'o200k_base';
  /** Keyed by page path. */
  pages: Record<string, PageEntry>;
}

export interface SearchDocument {
  title: string;
  url: string;
  markdownUrl: string;
  /** Plain text of the twin, used for scoring and snippets. */
  text: string;
}

export interface SearchIndex {
  documents: SearchDocument[];
}
