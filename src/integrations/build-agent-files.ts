import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MANIFEST_PATH, SEARCH_INDEX_PATH } from '../lib/agent-manifest.ts';
import { loadCatalogue } from '../lib/load-catalogue.ts';
import { buildManifest, buildSearchIndex } from './agent-manifest-file.ts';
import { readSkills, skillsIndex } from './agent-skills.ts';
import { apiCatalog } from './api-catalog.ts';
import { agentCard, aiCatalog, aiCatalogEntries, mcpServerCard } from './discovery-cards.ts';
import {
  checkLinks,
  urlsInJson,
  urlsInMarkdown,
  urlsInXml,
  type LinkSource,
} from './link-check.ts';
import { buildLlmsFull, buildLlmsTxt } from './llms-txt.ts';
import { buildOpenApi } from './openapi.ts';
import { OutputFiles } from './output-files.ts';
import { makeTwins, type TwinnedPage } from './page-twins.ts';
import { collectPages } from './site-pages.ts';
import { buildSitemaps } from './sitemaps.ts';

export interface AgentBuildOptions {
  outDir: string;
  /** Site origin, e.g. `https://engram.example`. */
  site: string;
  contentRoot: string;
}

/** Pages the discovery documents point at, with what to do when one is missing. */
const REQUIRED_PAGES: Record<string, (contentRoot: string) => string> = {
  '/': () => 'src/pages/index.astro must render the homepage (twin /index.md).',
  '/auth': (root) => `Write ${root}/pages/auth.mdx: its twin /auth.md is the auth guide.`,
  '/pricing': () => 'src/pages/pricing.astro must render the catalogue.',
};

export async function buildAgentFiles(
  opts: AgentBuildOptions,
): Promise<{ pages: number; files: number }> {
  const origin = new URL(opts.site).origin;
  const out = new OutputFiles(opts.outDir);

  const pages = await makeTwins(await collectPages(opts.outDir), origin, opts.contentRoot);
  for (const [path, fix] of Object.entries(REQUIRED_PAGES)) {
    if (!pages.some((p) => p.path === path)) {
      throw new Error(`Page ${path} is missing. ${fix(opts.contentRoot)}`);
    }
  }
  for (const p of pages) out.add(p.twin, p.markdown);

  out.addJson(MANIFEST_PATH, buildManifest(pages));
  out.addJson(SEARCH_INDEX_PATH, buildSearchIndex(pages, origin));

  const { catalogue } = loadCatalogue(`${opts.contentRoot}/pricing/catalogue.json`);
  out.addJson('/api/cloud/pricing.json', catalogue);

  out.add('/llms.txt', buildLlmsTxt(pages, origin));
  out.add('/llms-full.txt', buildLlmsFull(pages, origin));
  for (const [path, xml] of buildSitemaps(pages, origin)) out.add(path, xml);
  out.addJson('/openapi.json', buildOpenApi(origin));

  const links = docLinks(pages, origin);
  out.addJson('/.well-known/mcp/server-card.json', mcpServerCard(links));
  out.addJson('/.well-known/agent-card.json', agentCard(links));
  out.addJson(
    '/.well-known/ai-catalog.json',
    aiCatalog(origin, aiCatalogEntries(origin, links.docsTwin)),
  );
  out.addJson(
    '/.well-known/api-catalog',
    apiCatalog(origin, [links.apiDocs, links.docs, `${origin}/llms.txt`]),
  );

  const skills = await readSkills(opts.contentRoot);
  for (const s of skills) out.add(s.path, s.bytes);
  out.addJson('/.well-known/agent-skills/index.json', skillsIndex(origin, skills));

  out.add('/robots.txt', await robotsTxt(opts.outDir, origin));

  checkLinks(origin, opts.outDir, (p) => out.has(p), discoverySources(out));
  await out.flush();
  return { pages: pages.length, files: out.paths().length };
}

/** The most specific documentation page that exists, for each card; the link check backs it. */
function docLinks(pages: readonly TwinnedPage[], origin: string) {
  const has = new Set(pages.map((p) => p.path));
  const pick = (...candidates: string[]): string =>
    `${origin}${candidates.find((c) => has.has(c)) ?? '/'}`;
  return {
    origin,
    docs: pick('/docs', '/'),
    docsTwin: has.has('/docs') ? `${origin}/docs.md` : `${origin}/index.md`,
    mcpDocs: pick('/docs/mcp', '/docs', '/'),
    apiDocs: pick('/docs/api/overview', '/docs', '/'),
    authDocs: pick('/auth'),
  };
}

function discoverySources(out: OutputFiles): LinkSource[] {
  const text = (p: string): string => {
    const body = out.get(p);
    return typeof body === 'string' ? body : body ? new TextDecoder().decode(body) : '';
  };
  const sources: LinkSource[] = [];
  for (const path of out.paths()) {
    if (path === '/llms.txt') sources.push({ document: path, urls: urlsInMarkdown(text(path)) });
    else if (/^\/sitemap.*\.xml$/.test(path))
      sources.push({ document: path, urls: urlsInXml(text(path)) });
    else if (
      path === '/openapi.json' ||
      path === '/.well-known/api-catalog' ||
      (path.startsWith('/.well-known/') && path.endsWith('.json'))
    ) {
      sources.push({ document: path, urls: urlsInJson(JSON.parse(text(path))) });
    }
  }
  // openapi.json's concrete paths resolve under its server URL.
  const openapi = JSON.parse(text('/openapi.json')) as { paths: Record<string, unknown> };
  sources.push({
    document: '/openapi.json (paths)',
    urls: Object.keys(openapi.paths).filter((p) => !p.includes('{')),
  });
  return sources;
}

/** public/robots.txt with its Sitemap line pointed at the configured origin. */
async function robotsTxt(outDir: string, origin: string): Promise<string> {
  const robots = await readFile(join(outDir, 'robots.txt'), 'utf8');
  return robots.replace(/^Sitemap: .*$/m, `Sitemap: ${origin}/sitemap.xml`);
}
