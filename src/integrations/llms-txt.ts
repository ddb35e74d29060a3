import type { TwinnedPage } from './page-twins.ts';
import { byReadingOrder, SECTION_ORDER, SECTION_TITLES } from './sections.ts';

export const SITE_SUMMARY =
  'Engram is a memory service for AI agents: isolated Contexts (one SQLite database each), facts, documents and sessions, four retrieval modes (vector, bm25, hybrid, hybrid_graph), a REST API under /api/v1, an MCP server at /mcp, and TypeScript and Python SDKs. Every page of this site has a markdown twin: append .md to its path.';

/** One llms.txt line; newlines in a description would break the list item. */
function item(title: string, url: string, note: string): string {
  const clean = note.replace(/\s+/g, ' ').trim();
  return `- [${title.replace(/[[\]]/g, '')}](${url})${clean ? `: ${clean}` : ''}`;
}

/** /llms.txt in the llmstxt.org format: H1, blockquote summary, H2 sections of link lists. */
export function buildLlmsTxt(pages: readonly TwinnedPage[], site: string): string {
  const abs = (p: string): string => new URL(p, site).href;
  const out = [
    '# Engram',
    '',
    `> ${SITE_SUMMARY}`,
    '',
    'Links below point to the markdown twins of the pages. The same content is served to a request for the page itself with `Accept: text/markdown`.',
  ];
  const sorted = [...pages].sort(byReadingOrder);
  for (const section of SECTION_ORDER) {
    const inSection = sorted.filter((p) => p.section === section);
    if (inSection.length === 0) continue;
    out.push('', `## ${SECTION_TITLES[section] ?? section}`, '');
    for (const p of inSection) out.push(item(p.title, abs(p.twin), p.description));
  }
  out.push(
    '',
    '## Machine-readable',
    '',
    item('OpenAPI description', abs('/openapi.json'), 'OpenAPI 3.1 description of this origin.'),
    item('Pricing catalogue', abs('/api/cloud/pricing.json'), 'Plans and rates as JSON.'),
    item('API catalog', abs('/.well-known/api-catalog'), 'RFC 9727 linkset of the APIs.'),
    item('MCP server card', abs('/.well-known/mcp/server-card.json'), 'How to connect to /mcp.'),
    item('Agent skills', abs('/.well-known/agent-skills/index.json'), 'Published SKILL.md files.'),
    '',
    '## Optional',
    '',
    item('Full text', abs('/llms-full.txt'), 'Every page’s markdown in one file.'),
    item('Sitemap', abs('/sitemap.xml'), 'Sitemap index, one sitemap per section.'),
    '',
  );
  return out.join('\n');
}

/** /llms-full.txt: every twin, in reading order, each introduced by a comment naming it. */
export function buildLlmsFull(pages: readonly TwinnedPage[], site: string): string {
  const sorted = [...pages].sort(byReadingOrder);
  const parts = sorted.map((p) => {
    const source = `<!-- page: ${new URL(p.path, site).href} | markdown: ${new URL(p.twin, site).href} -->`;
    return `${source}\n\n${p.markdown.trimEnd()}\n`;
  });
  return `# Engram: full site text\n\n> ${SITE_SUMMARY}\n\n${parts.join('\n---\n\n')}`;
}
