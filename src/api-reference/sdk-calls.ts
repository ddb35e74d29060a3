/**
 * How each memory API operation is called from the two SDKs (sdk/js `MemoryClient`, sdk/python
 * `engram_memory.MemoryClient`): the method and a one-line call the reference page prints after
 * the client set-up. sdk-calls.test.ts checks every operation has an entry and every method
 * named here exists in the SDK sources, so a renamed method fails the tests, not a reader.
 */
export interface SdkCall {
  /** Method name on the JS client. */
  js: string;
  /** The JS call, awaited, e.g. `await memory.recall('where is Alice?', { mode: 'hybrid' })`. */
  jsCall: string;
  /** Method name on the Python client. */
  py: string;
  pyCall: string;
}

function call(js: string, jsArgs: string, py: string, pyArgs: string): SdkCall {
  return {
    js,
    jsCall: `await memory.${js}(${jsArgs});`,
    py,
    pyCall: `memory.${py}(${pyArgs})`,
  };
}

export const SDK_CALLS: Record<string, SdkCall> = {
  createContext: call(
    'createContext',
    `'acme', { tokenLimit: 1_000_000 }`,
    'create_context',
    `"acme", token_limit=1_000_000`,
  ),
  getContext: call('getContext', `'acme'`, 'get_context', `"acme"`),
  updateContext: call(
    'updateContext',
    `'acme', { enforcement_blocked: false }`,
    'update_context',
    `"acme", {"enforcement_blocked": False}`,
  ),
  deleteContext: call('deleteContext', `'acme'`, 'delete_context', `"acme"`),
  createPrincipal: call(
    'createPrincipal',
    `{ kind: 'agent', display_name: 'support-bot' }`,
    'create_principal',
    `"agent", "support-bot"`,
  ),
  getPrincipal: call('getPrincipal', `'principal_…'`, 'get_principal', `"principal_…"`),
  createKey: call(
    'createKey',
    `{\n  principal_id: 'principal_…',\n  context_id: 'acme',\n  grants: { 'memory:read': ['*'], 'memory:write': ['team:eng'] },\n}`,
    'create_key',
    `"principal_…", "acme", {"memory:read": ["*"], "memory:write": ["team:eng"]}`,
  ),
  revokeKey: call('revokeKey', `'key_…'`, 'revoke_key', `"key_…"`),
  updateKey: call(
    'updateKey',
    `'key_…', { grants: { 'memory:read': ['*'] } }`,
    'update_key',
    `"key_…", grants={"memory:read": ["*"]}`,
  ),
  deletePrincipal: call('deletePrincipal', `'principal_…'`, 'delete_principal', `"principal_…"`),
  exportContext: call('exportContext', `'acme'`, 'export_context', `"acme"`),
  exportContextBlob: call(
    'exportContextBlob',
    `'acme', sha256`,
    'export_context_blob',
    `"acme", sha256`,
  ),
  importContextBlob: call(
    'importContextBlob',
    `'acme-copy', sha256, bytes`,
    'import_context_blob',
    `"acme-copy", sha256, data`,
  ),
  importContext: call(
    'importContext',
    `'acme-copy', ndjson`,
    'import_context',
    `"acme-copy", ndjson`,
  ),
  getMigrations: call('migrations', '', 'migrations', ''),
  retryDeadLetter: call('retryDeadLetter', `'dlq_…'`, 'retry_dead_letter', `"dlq_…"`),
  createFact: call(
    'remember',
    `'Alice leads the Platform team in Berlin', { scopes: ['team:eng'] }`,
    'remember',
    `"Alice leads the Platform team in Berlin", scopes=["team:eng"]`,
  ),
  createFactsBatch: call(
    'rememberBatch',
    `[{ content: 'Alice is in Berlin' }, { content: 'Bob is in Lisbon' }]`,
    'remember_batch',
    `[{"content": "Alice is in Berlin"}, {"content": "Bob is in Lisbon"}]`,
  ),
  listFacts: call(
    'listFacts',
    `{ limit: 50, lens: ['team:eng'] }`,
    'list_facts',
    `limit=50, lens=["team:eng"]`,
  ),
  getFact: call('getFact', `'fact_…'`, 'get_fact', `"fact_…"`),
  deleteFact: call('forget', `'fact_…'`, 'forget', `"fact_…"`),
  queryMemory: call(
    'recall',
    `'where is the Platform team', { mode: 'hybrid_graph', k: 5 }`,
    'recall',
    `"where is the Platform team", mode="hybrid_graph", k=5`,
  ),
  createSession: call('createSession', '', 'create_session', ''),
  listSessions: call('listSessions', `{ limit: 20 }`, 'list_sessions', `limit=20`),
  getSession: call('getSession', `'session_…'`, 'get_session', `"session_…"`),
  deleteSession: call('deleteSession', `'session_…'`, 'delete_session', `"session_…"`),
  appendTurn: call(
    'addTurn',
    `'session_…', 'user', 'I moved to Lisbon'`,
    'add_turn',
    `"session_…", "user", "I moved to Lisbon"`,
  ),
  listTurns: call('listTurns', `'session_…', { limit: 50 }`, 'list_turns', `"session_…", limit=50`),
  getSessionContext: call(
    'sessionContext',
    `'session_…', { maxTokens: 2000 }`,
    'session_context',
    `"session_…", max_tokens=2000`,
  ),
  buildContext: call(
    'context',
    `{ query: 'Alice', maxTokens: 2000 }`,
    'context',
    `query="Alice", max_tokens=2000`,
  ),
  uploadDocument: call(
    'uploadDocument',
    `pdfBytes, { filename: 'handbook.pdf' }`,
    'upload_document',
    `pdf_bytes, filename="handbook.pdf"`,
  ),
  listDocuments: call('listDocuments', `{ limit: 20 }`, 'list_documents', `limit=20`),
  getDocument: call('getDocument', `'document:…'`, 'get_document', `"document:…"`),
  deleteDocument: call('deleteDocument', `'document:…'`, 'delete_document', `"document:…"`),
  chat: call('chat', `'Who leads the Platform team?'`, 'chat', `"Who leads the Platform team?"`),
  reflect: call('reflect', `{ lens: ['team:eng'] }`, 'reflect', `lens=["team:eng"]`),
  consolidate: call('consolidate', `{ dryRun: true }`, 'consolidate', `dry_run=True`),
};
