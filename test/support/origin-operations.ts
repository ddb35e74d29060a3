/**
 * The 15 operations of the website spec (section 4) at their paths: what `/openapi.json` must
 * describe exactly. Shared by the build-output and the conformance suites.
 */
export const OPERATIONS: Record<string, string> = {
  getCloudPricing: '/api/cloud/pricing.json',
  getHomepageMarkdown: '/index.md',
  getPageMarkdown: '/{page}.md',
  getSectionPageMarkdown: '/{section}/{page}.md',
  getSubsectionPageMarkdown: '/{section}/{subsection}/{page}.md',
  getDeepPageMarkdown: '/{section}/{subsection}/{subsubsection}/{page}.md',
  getLlmsIndex: '/llms.txt',
  getLlmsFull: '/llms-full.txt',
  getSitemapIndex: '/sitemap.xml',
  getOpenApiDescription: '/openapi.json',
  getMcpServerCard: '/.well-known/mcp/server-card.json',
  getAgentCard: '/.well-known/agent-card.json',
  getAiCatalog: '/.well-known/ai-catalog.json',
  getAgentSkillsIndex: '/.well-known/agent-skills/index.json',
  getAuthGuide: '/auth.md',
};
