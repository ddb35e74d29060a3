/**
 * The one source of example values for the API reference: the ids, query strings and request
 * bodies that the curl, TypeScript and Python tabs and the try-it panel all print, so the three
 * languages show the same request. Ids have the shape the service mints (`newId` in
 * functions/memory/store/ids.ts: kind, 9 base-36 time digits, 12 random ones).
 */
export const IDS = {
  context: 'acme',
  /** Where the import examples restore a backup of `acme`. */
  contextCopy: 'acme-copy',
  principal: 'principal_0mi4k2x9a3f7q1z8c5w6',
  key: 'key_0mi4k2x9b8d2r6t1y4n3',
  fact: 'fact_0mi4k3c1e5h9k2m7p0s4',
  /** Sessions take the caller's own id when it has one: here a support ticket's. */
  session: 'ticket-4821',
  document: 'doc_3f9a1c7e52b84d06a9e1f2c3b4d5e6f7',
  deadLetter: 'dlq_6b1e2f3a-4c5d-4e6f-8a9b-0c1d2e3f4a5b',
  sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
} as const;

/** `{id}` means a different thing after each collection: the segment before it says which. */
const ID_AFTER: Record<string, string> = {
  contexts: IDS.context,
  principals: IDS.principal,
  keys: IDS.key,
  facts: IDS.fact,
  documents: IDS.document,
  dlq: IDS.deadLetter,
};

/** Website API path segments: a real page of the site. */
const SITE_SEGMENTS: Record<string, string> = {
  page: 'pricing',
  section: 'docs',
  subsection: 'reference',
  subsubsection: 'memory',
};

/** The value printed for path parameter `name` of `path`. */
export function pathValue(path: string, name: string): string {
  if (name === 'context_id') return IDS.context;
  if (name === 'session_id') return IDS.session;
  if (name === 'sha256') return IDS.sha256;
  if (name === 'id') {
    const before = path.split('/{id}')[0]?.split('/').pop() ?? '';
    return ID_AFTER[before] ?? IDS.context;
  }
  return SITE_SEGMENTS[name] ?? name;
}

/** Request bodies (JSON) and query strings per operation id, where the schema's own is thin. */
interface OperationExample {
  /** Path parameters that differ from `pathValue`'s. */
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: unknown;
}

export const OPERATION_EXAMPLES: Record<string, OperationExample> = {
  createContext: { body: { id: IDS.context, token_limit: 1_000_000 } },
  updateContext: { body: { enforcement_blocked: false } },
  createPrincipal: { body: { kind: 'agent', display_name: 'support-bot' } },
  createKey: {
    body: {
      principal_id: IDS.principal,
      context_id: IDS.context,
      grants: { 'memory:read': ['*'], 'memory:write': ['team:eng'] },
    },
  },
  updateKey: { body: { grants: { 'memory:read': ['*'] } } },
  createFact: {
    body: { content: 'Alice leads the Platform team in Berlin', scopes: ['team:eng'] },
  },
  createFactsBatch: {
    body: { facts: [{ content: 'Alice is in Berlin' }, { content: 'Bob is in Lisbon' }] },
  },
  /** A lens in a query string is JSON (a flat list is OR). */
  listFacts: { query: { limit: 50, lens: '["team:eng"]' } },
  updateFact: { body: { content: 'Alice leads the Platform team in Munich' } },
  listEntities: { query: { prefix: 'ali', limit: 50 } },
  getEntity: { params: { name: 'alice' } },
  listContexts: { query: { limit: 50 } },
  listKeys: { query: { context_id: IDS.context } },
  listPrincipals: { query: { kind: 'agent' } },
  queryMemory: { body: { query: 'where is the Platform team', mode: 'hybrid_graph', k: 5 } },
  createSession: { body: { id: IDS.session, scopes: ['team:eng'] } },
  listSessions: { query: { limit: 20 } },
  appendTurn: { body: { role: 'user', content: 'I moved to Lisbon' } },
  listTurns: { query: { limit: 50 } },
  getSessionContext: { query: { max_tokens: 2000 } },
  buildContext: { body: { query: 'Alice', max_tokens: 2000 } },
  listDocuments: { query: { limit: 20 } },
  chat: { body: { message: 'Who leads the Platform team?' } },
  reflect: { body: { lens: ['team:eng'] } },
  consolidate: { body: { dry_run: true } },
  importContext: { params: { id: IDS.contextCopy } },
  importContextBlob: { params: { id: IDS.contextCopy } },
  // The website's twins at each depth: real pages, so the examples answer 200.
  getSectionPageMarkdown: { params: { section: 'docs', page: 'quickstart' } },
  getSubsectionPageMarkdown: { params: { section: 'docs', subsection: 'api', page: 'facts' } },
  getDeepPageMarkdown: {
    params: { section: 'docs', subsection: 'reference', subsubsection: 'memory', page: 'get-fact' },
  },
};

/** Non-JSON request bodies: the file curl sends and the content type it names. */
export const FILE_BODIES: Record<string, { file: string; type: string; form?: boolean }> = {
  /** Multipart, as the SDKs send it. */
  uploadDocument: { file: 'handbook.pdf', type: 'application/pdf', form: true },
  importContext: { file: 'acme.ndjson', type: 'application/x-ndjson' },
  importContextBlob: { file: `${IDS.sha256}.bin`, type: 'application/octet-stream' },
};

/** The path with its parameters filled and the example query appended. */
export function examplePath(
  operationId: string,
  path: string,
  requiredQuery: readonly string[] = [],
): string {
  const params = OPERATION_EXAMPLES[operationId]?.params ?? {};
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(params[name] ?? pathValue(path, name)),
  );
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(OPERATION_EXAMPLES[operationId]?.query ?? {})) {
    query.set(k, String(v));
  }
  for (const name of requiredQuery) if (!query.has(name)) query.set(name, 'example');
  const qs = query.toString();
  return qs ? `${filled}?${qs}` : filled;
}
