import { SEGMENT } from './site-pages.ts';
import { componentSchemas } from './openapi-components.ts';

/**
 * /openapi.json: OpenAPI 3.1 description of this origin (spec section 4). The two hidden
 * endpoints (/api/docs/search, /api/learn/{course}.json) are deliberately left out.
 */
type Json = Record<string, unknown>;

const MARKDOWN_404: Json = {
  description: 'Not found: a short markdown document naming the site’s indexes.',
  content: { 'text/markdown': { schema: { type: 'string' } } },
};

const TOKEN_HEADERS: Json = {
  'x-markdown-tokens': {
    description: 'o200k_base token count of this markdown document.',
    schema: { type: 'integer', minimum: 0 },
  },
  'x-original-tokens': {
    description: 'o200k_base token count of the equivalent HTML page.',
    schema: { type: 'integer', minimum: 0 },
  },
};

function segmentParam(name: string, description: string): Json {
  return {
    name,
    in: 'path',
    required: true,
    description,
    schema: { type: 'string', pattern: SEGMENT.source },
  };
}

function getOp(
  operationId: string,
  summary: string,
  mediaType: string,
  schema: Json,
  extra: { parameters?: Json[]; headers?: Json; notFound?: Json; description?: string } = {},
): Json {
  return {
    get: {
      operationId,
      summary,
      ...(extra.description ? { description: extra.description } : {}),
      ...(extra.parameters ? { parameters: extra.parameters } : {}),
      security: [],
      responses: {
        '200': {
          description: summary,
          ...(extra.headers ? { headers: extra.headers } : {}),
          content: { [mediaType]: { schema } },
        },
        '404': extra.notFound ?? MARKDOWN_404,
      },
    },
  };
}

const STRING = { type: 'string' };
const OBJECT = { type: 'object' };

function twinOp(id: string, summary: string, names: readonly string[]): Json {
  const labels: Record<string, string> = {
    page: 'Last path segment of the page.',
    section: 'First path segment (section).',
    subsection: 'Second path segment.',
    subsubsection: 'Third path segment.',
  };
  return getOp(id, summary, 'text/markdown', STRING, {
    headers: TOKEN_HEADERS,
    parameters: names.map((n) => segmentParam(n, labels[n] ?? n)),
    description:
      'The page’s markdown twin: a CommonMark document beginning with a level-one heading. A percent-encoded slash in the path is a 404.',
  });
}

export function buildOpenApi(site: string): Json {
  const origin = site.replace(/\/+$/, '');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Engram website origin',
      version: '1.0.0',
      summary: 'Pricing catalogue, markdown twins of every page and discovery documents.',
      description:
        'Public, read-only resources of the Engram website. The memory API is described separately at /api/v1/openapi.json; the MCP server card is at /.well-known/mcp/server-card.json.',
    },
    servers: [{ url: origin }],
    security: [],
    paths: {
      '/api/cloud/pricing.json': getOp(
        'getCloudPricing',
        'Pricing catalogue (same data as the pricing page)',
        'application/json',
        { $ref: '#/components/schemas/PricingCatalogue' },
        {
          notFound: {
            description: 'No resource is served here.',
            content: {
              'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
            },
          },
        },
      ),
      '/index.md': getOp('getHomepageMarkdown', 'Homepage as markdown', 'text/markdown', STRING, {
        headers: TOKEN_HEADERS,
      }),
      '/{page}.md': twinOp('getPageMarkdown', 'Markdown twin of a top-level page', ['page']),
      '/{section}/{page}.md': twinOp('getSectionPageMarkdown', 'Markdown twin of a section page', [
        'section',
        'page',
      ]),
      '/{section}/{subsection}/{page}.md': twinOp(
        'getSubsectionPageMarkdown',
        'Markdown twin of a subsection page',
        ['section', 'subsection', 'page'],
      ),
      '/{section}/{subsection}/{subsubsection}/{page}.md': twinOp(
        'getDeepPageMarkdown',
        'Markdown twin of a page four segments deep',
        ['section', 'subsection', 'subsubsection', 'page'],
      ),
      '/llms.txt': getOp(
        'getLlmsIndex',
        'Markdown index for language models',
        'text/plain',
        STRING,
      ),
      '/llms-full.txt': getOp(
        'getLlmsFull',
        'Every page’s markdown in one file',
        'text/plain',
        STRING,
      ),
      '/sitemap.xml': getOp(
        'getSitemapIndex',
        'Sitemap index; one sitemap per section, lastmod on every URL',
        'application/xml',
        STRING,
      ),
      '/openapi.json': getOp(
        'getOpenApiDescription',
        'This description',
        'application/json',
        OBJECT,
      ),
      '/.well-known/mcp/server-card.json': getOp(
        'getMcpServerCard',
        'MCP server card: transport, endpoint and documentation',
        'application/json',
        OBJECT,
      ),
      '/.well-known/agent-card.json': getOp(
        'getAgentCard',
        'Agent-to-agent card: skills, interfaces, security schemes',
        'application/json',
        OBJECT,
      ),
      '/.well-known/ai-catalog.json': getOp(
        'getAiCatalog',
        'Capability catalogue with urn:air identifiers',
        'application/json',
        OBJECT,
      ),
      '/.well-known/agent-skills/index.json': getOp(
        'getAgentSkillsIndex',
        'Published agent skills with SHA-256 digests',
        'application/json',
        OBJECT,
      ),
      '/auth.md': getOp(
        'getAuthGuide',
        'Guide to obtaining and using a credential',
        'text/markdown',
        STRING,
        { headers: TOKEN_HEADERS },
      ),
    },
    components: { schemas: componentSchemas() },
  };
}

/** The operation ids of spec section 4, in its order. */
export const OPERATION_IDS = [
  'getCloudPricing',
  'getHomepageMarkdown',
  'getPageMarkdown',
  'getSectionPageMarkdown',
  'getSubsectionPageMarkdown',
  'getDeepPageMarkdown',
  'getLlmsIndex',
  'getLlmsFull',
  'getSitemapIndex',
  'getOpenApiDescription',
  'getMcpServerCard',
  'getAgentCard',
  'getAiCatalog',
  'getAgentSkillsIndex',
  'getAuthGuide',
] as const;
