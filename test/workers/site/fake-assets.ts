import type { AgentManifest, SearchIndex } from '../../../src/lib/agent-manifest.ts';
import type { AssetFetcher } from '../../../functions/site/agent-data.ts';

/**
 * An in-memory stand-in for the ASSETS binding that behaves like Workers Static Assets with
 * `html_handling = "drop-trailing-slash"` and `not_found_handling = "none"`: `/x` serves `x.html`,
 * anything missing is a bare 404. Counts requests per path so tests can check caching.
 */
export interface FakeAssets extends AssetFetcher {
  requests: Map<string, number>;
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  md: 'text/markdown',
  txt: 'text/plain',
  xml: 'text/xml',
  json: 'application/json',
};

function typeOf(file: string): string {
  const ext = /\.([a-z]+)$/.exec(file)?.[1] ?? '';
  return TYPES[ext] ?? 'application/octet-stream';
}

export function fakeAssets(files: Record<string, string>): FakeAssets {
  const requests = new Map<string, number>();
  return {
    requests,
    async fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
      const request = new Request(input, init);
      const path = new URL(request.url).pathname;
      requests.set(path, (requests.get(path) ?? 0) + 1);
      const file = path === '/' ? '/index.html' : path in files ? path : `${path}.html`;
      const body = files[file];
      if (body === undefined) return new Response(null, { status: 404 });
      return new Response(request.method === 'HEAD' ? null : body, {
        headers: { 'content-type': typeOf(file), etag: `"${file}"` },
      });
    },
  };
}

const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1></main></body></html>`;

const MANIFEST: AgentManifest = {
  tokenizer: 'o200k_base',
  pages: {
    '/': entry('/', '/index.md', 'Engram', 'home', 11, 210),
    '/pricing': entry('/pricing', '/pricing.md', 'Pricing', 'pricing', 42, 900),
    '/auth': entry('/auth', '/auth.md', 'Authentication', 'pages', 30, 500),
    '/learn/memory-basics/retrieval/hybrid-search': entry(
      '/learn/memory-basics/retrieval/hybrid-search',
      '/learn/memory-basics/retrieval/hybrid-search.md',
      'Hybrid search',
      'learn',
      55,
      1200,
    ),
  },
};

function entry(
  path: string,
  twin: string,
  title: string,
  section: string,
  markdownTokens: number,
  originalTokens: number,
) {
  return {
    path,
    twin,
    title,
    description: `${title} page`,
    section,
    markdownTokens,
    originalTokens,
    lastmod: '2026-03-01',
  };
}

const SEARCH_INDEX: SearchIndex = {
  documents: [
    {
      title: 'Hybrid search',
      url: 'https://engram.example/learn/memory-basics/retrieval/hybrid-search',
      markdownUrl: 'https://engram.example/learn/memory-basics/retrieval/hybrid-search.md',
      text: 'Hybrid search fuses BM25 and vector rankings with Reciprocal Rank Fusion.',
    },
    {
      title: 'Pricing',
      url: 'https://engram.example/pricing',
      markdownUrl: 'https://engram.example/pricing.md',
      text: 'Cloud tiers and a calculator for the monthly total.',
    },
  ],
};

/** A small built site: two pages, their twins, the indexes and the private agent files. */
export const SITE_FILES: Record<string, string> = {
  '/index.html': page('Engram'),
  '/index.md': '# Engram\n\nMemory for agents.\n',
  '/pricing.html': page('Pricing'),
  '/pricing.md': '# Pricing\n\n| Plan | Price |\n| --- | --- |\n| Free | $0 |\n',
  '/auth.html': page('Authentication'),
  '/auth.md': '# Authentication\n\nSend `Authorization: Bearer mem_agent_...`.\n',
  '/learn/memory-basics/retrieval/hybrid-search.html': page('Hybrid search'),
  '/learn/memory-basics/retrieval/hybrid-search.md': '# Hybrid search\n\nRRF, k = 60.\n',
  '/console.html': page('Memory console'),
  '/404.html': page('Page not found'),
  '/llms.txt': '# Engram\n\n> Memory for agents.\n',
  '/llms-full.txt': '# Engram\n',
  '/sitemap.xml': '<?xml version="1.0"?><sitemapindex></sitemapindex>',
  '/sitemap-docs.xml': '<?xml version="1.0"?><urlset></urlset>',
  '/openapi.json': '{"openapi":"3.1.0"}',
  '/robots.txt': 'User-agent: *\n',
  '/.well-known/api-catalog': '{"linkset":[]}',
  '/.well-known/agent-card.json': '{"name":"Engram"}',
  '/.well-known/mcp/server-card.json': '{"name":"Engram"}',
  '/.well-known/agent-skills/engram-memory/SKILL.md': '---\nname: engram-memory\n---\n# Skill\n',
  '/api/cloud/pricing.json': '{"cloud":[]}',
  '/_agent/manifest.json': JSON.stringify(MANIFEST),
  '/_agent/search-index.json': JSON.stringify(SEARCH_INDEX),
};
