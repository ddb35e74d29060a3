import { IDS } from './examples.ts';

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
  /** Lines before the client set-up (reading a file to send), per language. */
  jsSetup?: string;
  pySetup?: string;
}

function call(
  js: string,
  jsArgs: string,
  py: string,
  pyArgs: string,
  setup: { js?: string; py?: string } = {},
): SdkCall {
  return {
    js,
    jsCall: `await memory.${js}(${jsArgs});`,
    py,
    pyCall: `memory.${py}(${pyArgs})`,
    ...(setup.js ? { jsSetup: setup.js } : {}),
    ...(setup.py ? { pySetup: setup.py } : {}),
  };
}

const { context, contextCopy, principal, key, fact, session, document, deadLetter, sha256 } = IDS;
const s = (value: string): string => `'${value}'`;
const d = (value: string): string => `"${value}"`;

export const SDK_CALLS: Record<string, SdkCall> = {
  createContext: call(
    'createContext',
    `${s(context)}, { tokenLimit: 1_000_000 }`,
    'create_context',
    `${d(context)}, token_limit=1_000_000`,
  ),
  listContexts: call('listContexts', `{ limit: 50 }`, 'list_contexts', `limit=50`),
  whoAmI: call('whoAmI', '', 'who_am_i', ''),
  getContext: call('getContext', s(context), 'get_context', d(context)),
  updateContext: call(
    'updateContext',
    `${s(context)}, { enforcement_blocked: false }`,
    'update_context',
    `${d(context)}, {"enforcement_blocked": False}`,
  ),
  deleteContext: call('deleteContext', s(context), 'delete_context', d(context)),
  createPrincipal: call(
    'createPrincipal',
    `{ kind: 'agent', display_name: 'support-bot' }`,
    'create_principal',
    `"agent", "support-bot"`,
  ),
  getPrincipal: call('getPrincipal', s(principal), 'get_principal', d(principal)),
  listPrincipals: call('listPrincipals', `{ kind: 'agent' }`, 'list_principals', `kind="agent"`),
  listKeys: call(
    'listKeys',
    `{ contextId: ${s(context)} }`,
    'list_keys',
    `context_id=${d(context)}`,
  ),
  createKey: call(
    'createKey',
    `{\n  principal_id: ${s(principal)},\n  context_id: ${s(context)},\n  grants: { 'memory:read': ['*'], 'memory:write': ['team:eng'] },\n}`,
    'create_key',
    `${d(principal)}, ${d(context)}, {"memory:read": ["*"], "memory:write": ["team:eng"]}`,
  ),
  revokeKey: call('revokeKey', s(key), 'revoke_key', d(key)),
  updateKey: call(
    'updateKey',
    `${s(key)}, { grants: { 'memory:read': ['*'] } }`,
    'update_key',
    `${d(key)}, grants={"memory:read": ["*"]}`,
  ),
  deletePrincipal: call('deletePrincipal', s(principal), 'delete_principal', d(principal)),
  exportContext: call('exportContext', s(context), 'export_context', d(context)),
  exportContextBlob: call(
    'exportContextBlob',
    `${s(context)}, ${s(sha256)}`,
    'export_context_blob',
    `${d(context)}, ${d(sha256)}`,
  ),
  importContextBlob: call(
    'importContextBlob',
    `${s(contextCopy)}, ${s(sha256)}, bytes`,
    'import_context_blob',
    `${d(contextCopy)}, ${d(sha256)}, data`,
    {
      js: `import { readFile } from 'node:fs/promises';\n\nconst bytes = new Uint8Array(await readFile('${sha256}.bin'));`,
      py: `with open("${sha256}.bin", "rb") as f:\n    data = f.read()`,
    },
  ),
  importContext: call(
    'importContext',
    `${s(contextCopy)}, ndjson`,
    'import_context',
    `${d(contextCopy)}, ndjson`,
    {
      js: `import { readFile } from 'node:fs/promises';\n\nconst ndjson = await readFile('acme.ndjson', 'utf8');`,
      py: `with open("acme.ndjson", encoding="utf-8") as f:\n    ndjson = f.read()`,
    },
  ),
  getMigrations: call('migrations', '', 'migrations', ''),
  retryDeadLetter: call('retryDeadLetter', s(deadLetter), 'retry_dead_letter', d(deadLetter)),
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
  getFact: call('getFact', s(fact), 'get_fact', d(fact)),
  deleteFact: call('forget', s(fact), 'forget', d(fact)),
  updateFact: call(
    'updateFact',
    `${s(fact)}, { content: 'Alice leads the Platform team in Munich' }`,
    'update_fact',
    `${d(fact)}, "Alice leads the Platform team in Munich"`,
  ),
  getFactHistory: call('factHistory', s(fact), 'fact_history', d(fact)),
  listEntities: call('listEntities', `{ prefix: 'ali' }`, 'list_entities', `prefix="ali"`),
  getEntity: call('getEntity', `'alice'`, 'get_entity', `"alice"`),
  queryMemory: call(
    'recall',
    `'where is the Platform team', { mode: 'hybrid_graph', k: 5 }`,
    'recall',
    `"where is the Platform team", mode="hybrid_graph", k=5`,
  ),
  createSession: call(
    'createSession',
    `{ id: ${s(session)}, scopes: ['team:eng'] }`,
    'create_session',
    `id=${d(session)}, scopes=["team:eng"]`,
  ),
  listSessions: call('listSessions', `{ limit: 20 }`, 'list_sessions', `limit=20`),
  getSession: call('getSession', s(session), 'get_session', d(session)),
  deleteSession: call('deleteSession', s(session), 'delete_session', d(session)),
  appendTurn: call(
    'addTurn',
    `${s(session)}, 'user', 'I moved to Lisbon'`,
    'add_turn',
    `${d(session)}, "user", "I moved to Lisbon"`,
  ),
  listTurns: call(
    'listTurns',
    `${s(session)}, { limit: 50 }`,
    'list_turns',
    `${d(session)}, limit=50`,
  ),
  getSessionContext: call(
    'sessionContext',
    `${s(session)}, { maxTokens: 2000 }`,
    'session_context',
    `${d(session)}, max_tokens=2000`,
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
    {
      js: `import { readFile } from 'node:fs/promises';\n\nconst pdfBytes = new Uint8Array(await readFile('handbook.pdf'));`,
      py: `with open("handbook.pdf", "rb") as f:\n    pdf_bytes = f.read()`,
    },
  ),
  listDocuments: call('listDocuments', `{ limit: 20 }`, 'list_documents', `limit=20`),
  getDocument: call('getDocument', s(document), 'get_document', d(document)),
  deleteDocument: call('deleteDocument', s(document), 'delete_document', d(document)),
  chat: call('chat', `'Who leads the Platform team?'`, 'chat', `"Who leads the Platform team?"`),
  reflect: call('reflect', `{ lens: ['team:eng'] }`, 'reflect', `lens=["team:eng"]`),
  consolidate: call('consolidate', `{ dryRun: true }`, 'consolidate', `dry_run=True`),
};
