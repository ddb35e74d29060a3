import type { AgentManifest, SearchIndex } from '../lib/agent-manifest.ts';
import type { TwinnedPage } from './page-twins.ts';
import { tokens } from './token-count.ts';

/** dist/_agent/manifest.json: what the Worker needs per page (twin, token counts, lastmod). */
export function buildManifest(pages: readonly TwinnedPage[]): AgentManifest {
  const manifest: AgentManifest = { tokenizer: 'o200k_base', pages: {} };
  for (const p of pages) {
    manifest.pages[p.path] = {
      path: p.path,
      twin: p.twin,
      title: p.title,
      description: p.description,
      section: p.section,
      markdownTokens: tokens(p.markdown),
      originalTokens: tokens(p.html),
      lastmod: p.lastmod,
    };
  }
  return manifest;
}

/** dist/_agent/search-index.json: the twins' text for /api/docs/search. */
export function buildSearchIndex(pages: readonly TwinnedPage[], site: string): SearchIndex {
  return {
    documents: pages.map((p) => ({
      title: p.title,
      url: new URL(p.path, site).href,
      markdownUrl: new URL(p.twin, site).href,
      text: p.markdown,
    })),
  };
}
