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
    description: 'Merge duplicates and supersede stale facts; dry_run previews the decisions.',
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
