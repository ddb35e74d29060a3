/**
 * The MCP server's tool list, shared by the server (functions/memory/mcp) and the build, which
 * writes the MCP server card and the A2A agent card from it, so the cards cannot drift from the
 * live server. Input schemas live beside the server; this module carries what the cards show.
 */
export interface McpToolSummary {
  name: string;
  title: string;
  description: string;
}

export const MCP_TOOLS = [
  {
    name: 'remember',
    title: 'Remember',
    description:
      'Store one or more facts in a Context, optionally extracting atomic facts with a model (infer).',
  },
  {
    name: 'recall',
    title: 'Recall',
    description:
      'Query a Context in vector, bm25, hybrid or hybrid_graph mode, filtered by a lens.',
  },
  {
    name: 'context',
    title: 'Context block',
    description:
      'Build a prompt-ready block of the most relevant memories and recent turns under a token budget.',
  },
  {
    name: 'chat',
    title: 'Chat',
    description: 'Answer a message from retrieved memory and session history, with citations.',
  },
  {
    name: 'reflect',
    title: 'Reflect',
    description: 'Derive insights over a lens; persisting them needs a supervisor key.',
  },
  {
    name: 'consolidate',
    title: 'Consolidate',
    description:
      'Merge duplicates and supersede stale facts; dry_run previews the decisions. Past 1,000 facts a call plans one window: pass next_cursor back as cursor.',
  },
  {
    name: 'forget',
    title: 'Forget',
    description: 'Delete a fact or a document from every index of the Context.',
  },
  {
    name: 'upload',
    title: 'Upload document',
    description: 'Upload a document from text or base64; it is processed in the background.',
  },
  {
    name: 'inspect',
    title: 'Inspect',
    description: 'Show the state of a document (status, error, timestamps) or a fact.',
  },
  {
    name: 'update_fact',
    title: 'Update fact',
    description:
      'Replace a fact with a new version; the old one is superseded (valid_until set) and kept as history.',
  },
  {
    name: 'list_facts',
    title: 'List facts',
    description:
      'List current facts inside a lens, oldest first, one page at a time with a cursor.',
  },
  {
    name: 'fact_history',
    title: 'Fact history',
    description:
      'Every version of a fact, oldest first, with when each was superseded and by what.',
  },
  {
    name: 'add_turn',
    title: 'Add turn',
    description:
      'Append a turn to a session (created on first use); user turns queue fact extraction.',
  },
  {
    name: 'list_entities',
    title: 'List entities',
    description: 'List the people, places and things that readable facts mention, with a cursor.',
  },
  {
    name: 'document_status',
    title: 'Document status',
    description:
      'Processing status of an uploaded document (queued to ready or failed), optionally waiting for it.',
  },
  {
    name: 'search_documentation',
    title: 'Search documentation',
    description:
      'Search this site’s documentation and return matching pages with their markdown URLs.',
  },
] as const satisfies readonly McpToolSummary[];

export type McpToolName = (typeof MCP_TOOLS)[number]['name'];

/** A prompt as `prompts/list` shows it (and the server card lists it). */
export interface McpPromptSummary {
  name: string;
  title: string;
  description: string;
  arguments: Array<{ name: string; description: string; required: boolean }>;
}

const CONTEXT_ARGUMENT = {
  name: 'context_id',
  description: 'The Context to read; needed only when the credential is not bound to one.',
  required: false,
};

export const MCP_PROMPTS: McpPromptSummary[] = [
  {
    name: 'recall_topic',
    title: 'Recall about a topic',
    description: 'What memory holds about a topic, as a prompt that asks for a grounded answer.',
    arguments: [
      { name: 'topic', description: 'The topic, in plain language.', required: true },
      {
        name: 'scope',
        description: 'Only memories under this scope path (e.g. team:eng).',
        required: false,
      },
      CONTEXT_ARGUMENT,
    ],
  },
  {
    name: 'summarize_session',
    title: 'Summarise a session',
    description: 'A session transcript with a request to summarise decisions and open questions.',
    arguments: [
      { name: 'session_id', description: 'The session to summarise.', required: true },
      CONTEXT_ARGUMENT,
    ],
  },
  {
    name: 'about_person',
    title: 'What is known about a person',
    description: 'Everything memory holds about a person (entity graph search), to brief on them.',
    arguments: [
      { name: 'name', description: 'The person’s name as memory mentions it.', required: true },
      CONTEXT_ARGUMENT,
    ],
  },
];

/** A resource template as `resources/templates/list` shows it (and the server card lists it). */
export interface McpResourceTemplateSummary {
  uriTemplate: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
}

export const MCP_RESOURCE_TEMPLATES: McpResourceTemplateSummary[] = [
  {
    uriTemplate: 'memory://{context_id}/facts/{fact_id}',
    name: 'fact',
    title: 'Fact',
    description: 'One fact with its scopes, metadata and validity window (superseded_by).',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'memory://{context_id}/sessions/{session_id}',
    name: 'session',
    title: 'Session',
    description: 'A session with its turns, oldest first.',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'memory://{context_id}/documents/{document_id}',
    name: 'document',
    title: 'Document',
    description:
      'An uploaded document: processing status (queued, extracting, chunking, embedding, ready, failed), error, pages and chunk count. Subscribe for notifications/resources/updated when processing ends.',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'memory://{context_id}/context',
    name: 'context-block',
    title: 'Context block',
    description: 'The prompt-ready block of the most relevant memories under the default budget.',
    mimeType: 'text/plain',
  },
];
