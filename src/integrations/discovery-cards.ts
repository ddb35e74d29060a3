import { MCP_PROMPTS, MCP_RESOURCE_TEMPLATES, MCP_TOOLS } from '../schemas/mcp-tools.ts';

/**
 * The well-known cards: MCP server card, A2A agent card and the AI catalogue. All URLs are
 * absolute under the site origin; the link check verifies each resolves.
 */
type Json = Record<string, unknown>;

export const SERVICE_VERSION = '1.0.0';
const NAME = 'Engram';
const DESCRIPTION =
  'Memory for AI agents: store facts, documents and conversation turns in isolated Contexts and recall them with vector, bm25, hybrid or hybrid_graph retrieval.';

export interface CardLinks {
  /** Absolute origin without trailing slash. */
  origin: string;
  /** Absolute URL of the MCP documentation page. */
  mcpDocs: string;
  /** Absolute URL of the memory API documentation page. */
  apiDocs: string;
  /** Absolute URL of the auth guide page. */
  authDocs: string;
}

const SCOPES = {
  'memory:read': 'Recall, context blocks and chat over the granted scopes.',
  'memory:write': 'Store facts, turns and documents in the granted scopes.',
  'memory:forget': 'Delete facts and documents in the granted scopes.',
};

export function mcpServerCard(l: CardLinks): Json {
  return {
    name: 'engram-memory',
    title: `${NAME} memory`,
    version: SERVICE_VERSION,
    description: DESCRIPTION,
    transport: { type: 'streamable-http', endpoint: `${l.origin}/mcp` },
    endpoint: `${l.origin}/mcp`,
    documentationUrl: l.mcpDocs,
    capabilities: {
      tools: { listChanged: false },
      resources: { subscribe: true, listChanged: false },
      prompts: { listChanged: false },
      completions: {},
      logging: {},
    },
    authentication: {
      required: true,
      description:
        'Needs an Engram account or a personal access token: an API key sent as `Authorization: Bearer mem_<kind>_<secret>`, or an OAuth 2.1 access token granted by signing in (authorization code with PKCE S256, dynamic client registration). Auth failures and unknown Contexts are both 401.',
      schemes: [
        { type: 'bearer', format: 'mem_<kind>_<secret>', documentationUrl: l.authDocs },
        {
          type: 'oauth2',
          protectedResourceMetadata: `${l.origin}/.well-known/oauth-protected-resource`,
          authorizationServerMetadata: `${l.origin}/.well-known/oauth-authorization-server`,
          scopes: Object.keys(SCOPES),
        },
      ],
    },
    tools: MCP_TOOLS.map((t) => ({ name: t.name, title: t.title, description: t.description })),
    resourceTemplates: MCP_RESOURCE_TEMPLATES,
    prompts: MCP_PROMPTS,
  };
}

export function agentCard(l: CardLinks): Json {
  const memoryTools = MCP_TOOLS.filter((t) => t.name !== 'search_documentation');
  return {
    protocolVersion: '0.3.0',
    name: NAME,
    description: DESCRIPTION,
    version: SERVICE_VERSION,
    url: `${l.origin}/mcp`,
    documentationUrl: l.apiDocs,
    provider: { organization: NAME, url: `${l.origin}/` },
    supportedInterfaces: [
      { url: `${l.origin}/mcp`, protocolBinding: 'MCP', transport: 'streamable-http' },
      { url: `${l.origin}/api/v1`, protocolBinding: 'HTTP+JSON' },
    ],
    capabilities: { streaming: false, pushNotifications: false, stateTransitionHistory: false },
    defaultInputModes: ['application/json', 'text/plain'],
    defaultOutputModes: ['application/json', 'text/markdown'],
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'mem_<kind>_<secret>',
        description: 'An Engram API key.',
      },
      oauth2: {
        type: 'oauth2',
        description: 'OAuth 2.1 authorization code with PKCE S256.',
        oauth2MetadataUrl: `${l.origin}/.well-known/oauth-authorization-server`,
        flows: {
          authorizationCode: {
            authorizationUrl: `${l.origin}/oauth/authorize`,
            tokenUrl: `${l.origin}/oauth/token`,
            scopes: SCOPES,
          },
        },
      },
    },
    security: [{ bearer: [] }, { oauth2: Object.keys(SCOPES) }],
    skills: memoryTools.map((t) => ({
      id: t.name,
      name: t.title,
      description: t.description,
      tags: ['memory', t.name],
      inputModes: ['application/json'],
      outputModes: ['application/json'],
    })),
  };
}

export interface CatalogEntryInput {
  namespace: string;
  name: string;
  title: string;
  description: string;
  url: string;
  mediaType: string;
  queries: readonly string[];
}

export function aiCatalog(origin: string, entries: readonly CatalogEntryInput[]): Json {
  const host = new URL(origin).hostname;
  return {
    specVersion: '1.0',
    host: { name: NAME, domain: host, url: `${origin}/`, description: DESCRIPTION },
    entries: entries.map((e) => ({
      id: `urn:air:${host}:${e.namespace}:${e.name}`,
      name: e.title,
      description: e.description,
      url: e.url,
      mediaType: e.mediaType,
      queries: [...e.queries],
    })),
  };
}

export function aiCatalogEntries(origin: string, docsUrl: string): CatalogEntryInput[] {
  return [
    {
      namespace: 'site',
      name: 'pricing-catalogue',
      title: 'Pricing catalogue',
      description: 'Cloud, self-hosted and support plans with compute, storage and transfer rates.',
      url: `${origin}/api/cloud/pricing.json`,
      mediaType: 'application/json',
      queries: [
        'How much does Engram cost per month?',
        'Which plan includes Engram Studio scale?',
        'What is the hourly rate of a scale node?',
      ],
    },
    {
      namespace: 'site',
      name: 'llms-txt',
      title: 'llms.txt',
      description: 'Index of every page’s markdown twin for language models.',
      url: `${origin}/llms.txt`,
      mediaType: 'text/plain',
      queries: ['What pages does the Engram site have?', 'Where is the Engram documentation?'],
    },
    {
      namespace: 'site',
      name: 'openapi',
      title: 'Website OpenAPI description',
      description: 'OpenAPI 3.1 description of the public site origin.',
      url: `${origin}/openapi.json`,
      mediaType: 'application/json',
      queries: [
        'How do I fetch a page as markdown?',
        'Which discovery documents does the site serve?',
      ],
    },
    {
      namespace: 'memory',
      name: 'memory-api',
      title: 'Memory API',
      description: 'REST API for Contexts, facts, queries, sessions, documents and chat.',
      url: `${origin}/api/v1/openapi.json`,
      mediaType: 'application/json',
      queries: [
        'Store a fact for an agent',
        'Recall memories with hybrid search',
        'Upload a document into a Context',
      ],
    },
    {
      namespace: 'memory',
      name: 'mcp-server',
      title: 'MCP server',
      description: 'Streamable HTTP MCP server exposing the memory operations as tools.',
      url: `${origin}/.well-known/mcp/server-card.json`,
      mediaType: 'application/json',
      queries: ['Connect Claude to agent memory', 'Which MCP tools does Engram offer?'],
    },
    {
      namespace: 'site',
      name: 'docs',
      title: 'Documentation',
      description: 'Guides to the memory API, the MCP server and the SDKs.',
      url: docsUrl,
      mediaType: 'text/markdown',
      queries: ['How do scopes and lenses work?', 'How do I use the TypeScript SDK?'],
    },
  ];
}
