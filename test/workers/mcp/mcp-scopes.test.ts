import { exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOOLS } from '../../../src/schemas/mcp-tools.ts';
import { PROMPTS } from '../../../functions/memory/mcp/prompts.ts';
import { callTool, contextWithKey, keyOn, ORIGIN, rpc, type JsonRpcReply } from './mcp-client.ts';

/**
 * A key scoped to `team:eng` against every MCP tool, resource and prompt: it reaches what REST
 * would let it reach and nothing of `team:hr`. The HR memories carry a marker word, so any leak
 * in any answer (content, ids, names) fails the row.
 */
const CTX = 'mcp-scoped-table';
const MARKER = 'Zanzibar';
const ENG = ['team:eng'];
const HR_SESSION = 'hr-1';

interface Seed {
  hrFact: string;
  engFact: string;
  hrDoc: string;
  engDoc: string;
}

let root = '';
let scoped = '';
let readOnly = '';
const seed: Seed = { hrFact: '', engFact: '', hrDoc: '', engDoc: '' };

async function factId(key: string, content: string, scopes: string[]): Promise<string> {
  const reply = await callTool(key, 'remember', { content, scopes });
  const facts = reply.body.result?.structuredContent?.facts as Array<{ id: string }> | undefined;
  const id = facts?.[0]?.id;
  if (!id) throw new Error(`seed failed: ${JSON.stringify(reply.body)}`);
  return id;
}

async function docId(key: string, filename: string, text: string, scopes: string[]) {
  const reply = await callTool(key, 'upload', { filename, text, scopes });
  const id = reply.body.result?.structuredContent?.id;
  if (typeof id !== 'string') throw new Error(`seed failed: ${JSON.stringify(reply.body)}`);
  return id;
}

beforeAll(async () => {
  root = await contextWithKey(CTX);
  scoped = await keyOn(
    CTX,
    { 'memory:read': ENG, 'memory:write': ENG, 'memory:forget': ENG },
    'eng',
  );
  readOnly = await keyOn(
    CTX,
    { 'memory:read': ENG, 'memory:write': [], 'memory:forget': [] },
    'eng-reader',
  );
  seed.hrFact = await factId(root, `${MARKER} Quill earns 91000 a year.`, ['team:hr']);
  seed.engFact = await factId(root, 'Ravi deploys the API on Tuesdays.', ENG);
  seed.hrDoc = await docId(root, `${MARKER}-salaries.md`, `# Pay\n\n${MARKER} pay bands.`, [
    'team:hr',
  ]);
  seed.engDoc = await docId(root, 'runbook.md', '# Runbook\n\nRestart the API.', ENG);
  // A session in team:hr, outside the scoped key's grant; its turn carries HR content.
  const hr = await callTool(root, 'add_turn', {
    session_id: HR_SESSION,
    scopes: ['team:hr'],
    role: 'user',
    content: `${MARKER} salaries review on Friday.`,
  });
  if (hr.body.result?.isError) throw new Error(`seed failed: ${JSON.stringify(hr.body)}`);
});

/** What a row's call came to: a success, or the HTTP-style status of its refusal. */
type Outcome = 'ok' | number;

function outcomeOf(reply: JsonRpcReply): Outcome {
  if (reply.body.error) {
    const data = (reply.body.error as { data?: { status?: number } }).data;
    return data?.status ?? (reply.body.error.code === -32002 ? 404 : reply.body.error.code);
  }
  if (reply.body.result?.isError) {
    const err = reply.body.result.structuredContent?.error as { status: number } | undefined;
    return err?.status ?? 500;
  }
  return 'ok';
}

async function rest(method: string, path: string, key: string, body?: unknown): Promise<number> {
  const res = await exports.default.fetch(`${ORIGIN}/api/v1/${CTX}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await res.body?.cancel();
  return res.status;
}

interface Row {
  surface: string;
  case: string;
  call(): Promise<JsonRpcReply>;
  expected: Outcome;
  /**
   * The request itself names HR things (an id, the marker in a query): those may be echoed back
   * (e.g. "no item <id>"), so only HR content is checked for.
   */
  namesHr?: true;
  /** The same request over REST, whose status must match the MCP outcome. */
  rest?: () => Promise<number>;
}

const tool = (key: () => string, name: string, args: () => Record<string, unknown>) => () =>
  callTool(key(), name, args());
const method = (key: () => string, name: string, params: () => Record<string, unknown>) => () =>
  rpc(key(), name, params());
const eng = () => scoped;
const reader = () => readOnly;
const uri = (kind: string, id: string) => `memory://${CTX}/${kind}/${encodeURIComponent(id)}`;

const ROWS: Row[] = [
  // tools
  {
    surface: 'remember',
    case: 'inside the write grant',
    call: tool(eng, 'remember', () => ({ content: 'Eng uses Go.', scopes: ENG })),
    expected: 'ok',
  },
  {
    surface: 'remember',
    case: 'outside the write grant',
    call: tool(eng, 'remember', () => ({ content: 'x', scopes: ['team:hr'] })),
    expected: 403,
    rest: () => rest('POST', '/facts', scoped, { content: 'x', scopes: ['team:hr'] }),
  },
  {
    surface: 'recall',
    case: 'the grant (HR never returned)',
    call: tool(eng, 'recall', () => ({ query: `${MARKER} pay earns`, mode: 'bm25' })),
    namesHr: true,
    expected: 'ok',
  },
  {
    surface: 'recall',
    case: 'a lens outside the grant',
    call: tool(eng, 'recall', () => ({ query: 'pay', lens: ['team:hr'] })),
    expected: 403,
    rest: () => rest('POST', '/query', scoped, { query: 'pay', lens: ['team:hr'] }),
  },
  {
    surface: 'context',
    case: 'a query about HR',
    call: tool(eng, 'context', () => ({ query: `What does ${MARKER} earn?` })),
    namesHr: true,
    expected: 'ok',
  },
  {
    surface: 'chat',
    case: 'a question about HR',
    call: tool(eng, 'chat', () => ({ message: `What does ${MARKER} Quill earn?` })),
    namesHr: true,
    expected: 'ok',
  },
  {
    surface: 'reflect',
    case: 'a lens outside the grant',
    call: tool(eng, 'reflect', () => ({ lens: ['team:hr'] })),
    expected: 403,
    rest: () => rest('POST', '/reflect', scoped, { lens: ['team:hr'] }),
  },
  {
    surface: 'consolidate',
    case: 'a lens outside the grant',
    call: tool(eng, 'consolidate', () => ({ lens: ['team:hr'], dry_run: true })),
    expected: 403,
  },
  {
    surface: 'forget',
    case: 'an HR fact',
    call: tool(eng, 'forget', () => ({ id: seed.hrFact })),
    namesHr: true,
    expected: 404,
    rest: () => rest('DELETE', `/facts/${seed.hrFact}`, scoped),
  },
  {
    surface: 'forget',
    case: 'without a forget grant',
    call: tool(reader, 'forget', () => ({ id: seed.engFact })),
    expected: 403,
    rest: () => rest('DELETE', `/facts/${seed.engFact}`, readOnly),
  },
  {
    surface: 'upload',
    case: 'outside the write grant',
    call: tool(eng, 'upload', () => ({ filename: 'x.md', text: 'x', scopes: ['team:hr'] })),
    expected: 403,
  },
  {
    surface: 'inspect',
    case: 'an HR fact',
    call: tool(eng, 'inspect', () => ({ id: seed.hrFact })),
    namesHr: true,
    expected: 404,
    rest: () => rest('GET', `/facts/${seed.hrFact}`, scoped),
  },
  {
    surface: 'inspect',
    case: 'an HR document',
    call: tool(eng, 'inspect', () => ({ id: seed.hrDoc })),
    namesHr: true,
    expected: 404,
    rest: () => rest('GET', `/documents/${seed.hrDoc}`, scoped),
  },
  {
    surface: 'update_fact',
    case: 'an HR fact',
    call: tool(eng, 'update_fact', () => ({ id: seed.hrFact, content: 'y' })),
    namesHr: true,
    expected: 404,
  },
  {
    surface: 'update_fact',
    case: 'moving an Eng fact into HR',
    call: tool(eng, 'update_fact', () => ({
      id: seed.engFact,
      content: 'Ravi deploys on Wednesdays.',
      scopes: ['team:hr'],
    })),
    expected: 403,
  },
  {
    surface: 'update_fact',
    case: 'without a write grant',
    call: tool(reader, 'update_fact', () => ({ id: seed.engFact, content: 'z' })),
    expected: 403,
  },
  {
    surface: 'list_facts',
    case: 'the grant (HR never listed)',
    call: tool(eng, 'list_facts', () => ({ include_superseded: true })),
    expected: 'ok',
  },
  {
    surface: 'list_facts',
    case: 'a lens outside the grant',
    call: tool(eng, 'list_facts', () => ({ lens: ['team:hr'] })),
    expected: 403,
  },
  {
    surface: 'fact_history',
    case: 'an HR fact',
    call: tool(eng, 'fact_history', () => ({ id: seed.hrFact })),
    namesHr: true,
    expected: 404,
  },
  {
    surface: 'add_turn',
    case: 'a new session inside the write grant',
    call: tool(eng, 'add_turn', () => ({
      session_id: 'eng-1',
      scopes: ENG,
      role: 'user',
      content: 'hi',
    })),
    expected: 'ok',
  },
  {
    surface: 'add_turn',
    case: 'a session of the grant, again',
    call: tool(eng, 'add_turn', () => ({ session_id: 'eng-1', role: 'assistant', content: 'yo' })),
    expected: 'ok',
    rest: () => rest('POST', '/sessions/eng-1/turns', scoped, { role: 'user', content: 'hey' }),
  },
  {
    surface: 'add_turn',
    case: 'a new session without scopes (unscoped: root grant only)',
    call: tool(eng, 'add_turn', () => ({ session_id: 'eng-3', role: 'user', content: 'hi' })),
    expected: 403,
    rest: () => rest('POST', '/sessions', scoped, { id: 'eng-3' }),
  },
  {
    surface: 'add_turn',
    case: 'a new session outside the write grant',
    call: tool(eng, 'add_turn', () => ({
      session_id: 'eng-4',
      scopes: ['team:hr'],
      role: 'user',
      content: 'hi',
    })),
    expected: 403,
    rest: () => rest('POST', '/sessions', scoped, { id: 'eng-4', scopes: ['team:hr'] }),
  },
  {
    surface: 'add_turn',
    case: 'a team:hr session',
    call: tool(eng, 'add_turn', () => ({
      session_id: HR_SESSION,
      scopes: ENG,
      role: 'user',
      content: 'hi',
    })),
    expected: 404,
    rest: () =>
      rest('POST', `/sessions/${HR_SESSION}/turns`, scoped, { role: 'user', content: 'hi' }),
  },
  {
    surface: 'add_turn',
    case: 'without a write grant',
    call: tool(reader, 'add_turn', () => ({ session_id: 'eng-2', role: 'user', content: 'hi' })),
    expected: 403,
    rest: () => rest('POST', '/sessions', readOnly, { id: 'eng-2' }),
  },
  {
    surface: 'list_entities',
    case: 'the grant (HR names never listed)',
    call: tool(eng, 'list_entities', () => ({})),
    expected: 'ok',
  },
  {
    surface: 'document_status',
    case: 'an HR document',
    call: tool(eng, 'document_status', () => ({ id: seed.hrDoc })),
    namesHr: true,
    expected: 404,
    rest: () => rest('GET', `/documents/${seed.hrDoc}`, scoped),
  },
  {
    surface: 'document_status',
    case: 'an Eng document',
    call: tool(eng, 'document_status', () => ({ id: seed.engDoc })),
    expected: 'ok',
    rest: () => rest('GET', `/documents/${seed.engDoc}`, scoped),
  },
  {
    surface: 'search_documentation',
    case: 'public documentation',
    call: tool(eng, 'search_documentation', () => ({ query: 'lens' })),
    expected: 'ok',
  },
  // resources
  {
    surface: 'resources/list',
    case: 'the grant (HR never listed)',
    call: method(eng, 'resources/list', () => ({})),
    expected: 'ok',
  },
  {
    surface: 'resources/read',
    case: 'an HR fact',
    call: method(eng, 'resources/read', () => ({ uri: uri('facts', seed.hrFact) })),
    namesHr: true,
    expected: 404,
    rest: () => rest('GET', `/facts/${seed.hrFact}`, scoped),
  },
  {
    surface: 'resources/read',
    case: 'an HR document',
    call: method(eng, 'resources/read', () => ({ uri: uri('documents', seed.hrDoc) })),
    namesHr: true,
    expected: 404,
  },
  {
    surface: 'resources/read',
    case: 'an Eng fact',
    call: method(eng, 'resources/read', () => ({ uri: uri('facts', seed.engFact) })),
    expected: 'ok',
  },
  {
    surface: 'resources/read',
    case: 'the context block',
    call: method(eng, 'resources/read', () => ({ uri: `memory://${CTX}/context` })),
    expected: 'ok',
  },
  {
    surface: 'resources/read',
    case: 'a team:eng session',
    call: method(eng, 'resources/read', () => ({ uri: uri('sessions', 'eng-1') })),
    expected: 'ok',
    rest: () => rest('GET', '/sessions/eng-1', scoped),
  },
  {
    surface: 'resources/read',
    case: 'a team:hr session',
    call: method(eng, 'resources/read', () => ({ uri: uri('sessions', HR_SESSION) })),
    expected: 404,
    rest: () => rest('GET', `/sessions/${HR_SESSION}`, scoped),
  },
  // prompts and completions
  {
    surface: 'prompts/get recall_topic',
    case: 'a topic in HR',
    call: method(eng, 'prompts/get', () => ({
      name: 'recall_topic',
      arguments: { topic: `${MARKER} pay` },
    })),
    namesHr: true,
    expected: 'ok',
  },
  {
    surface: 'prompts/get recall_topic',
    case: 'a scope outside the grant',
    call: method(eng, 'prompts/get', () => ({
      name: 'recall_topic',
      arguments: { topic: 'pay', scope: 'team:hr' },
    })),
    expected: 403,
  },
  {
    surface: 'prompts/get about_person',
    case: 'a person only HR knows',
    call: method(eng, 'prompts/get', () => ({
      name: 'about_person',
      arguments: { name: `${MARKER} Quill` },
    })),
    namesHr: true,
    expected: 'ok',
  },
  {
    surface: 'prompts/get summarize_session',
    case: 'a team:eng session',
    call: method(eng, 'prompts/get', () => ({
      name: 'summarize_session',
      arguments: { session_id: 'eng-1' },
    })),
    expected: 'ok',
    rest: () => rest('GET', '/sessions/eng-1/turns', scoped),
  },
  {
    surface: 'prompts/get summarize_session',
    case: 'a team:hr session',
    call: method(eng, 'prompts/get', () => ({
      name: 'summarize_session',
      arguments: { session_id: HR_SESSION },
    })),
    expected: 404,
    rest: () => rest('GET', `/sessions/${HR_SESSION}/turns`, scoped),
  },
  {
    surface: 'completion/complete',
    case: 'session ids (HR sessions never offered)',
    call: method(eng, 'completion/complete', () => ({
      ref: { type: 'ref/prompt', name: 'summarize_session' },
      argument: { name: 'session_id', value: '' },
    })),
    expected: 'ok',
  },
  {
    surface: 'completion/complete',
    case: 'entity names (HR names never offered)',
    call: method(eng, 'completion/complete', () => ({
      ref: { type: 'ref/prompt', name: 'about_person' },
      argument: { name: 'name', value: MARKER.slice(0, 3) },
    })),
    namesHr: true,
    expected: 'ok',
  },
  {
    surface: 'completion/complete',
    case: 'scopes (only the read grant)',
    call: method(eng, 'completion/complete', () => ({
      ref: { type: 'ref/prompt', name: 'recall_topic' },
      argument: { name: 'scope', value: 'team:' },
    })),
    expected: 'ok',
  },
];

describe('a team:eng key against every MCP tool, resource and prompt', () => {
  it.each(ROWS.map((r) => [`${r.surface}: ${r.case}`, r] as const))('%s', async (_, row) => {
    const reply = await row.call();
    expect(reply.status).toBe(200);
    expect(outcomeOf(reply)).toBe(row.expected);
    const text = JSON.stringify(reply.body);
    for (const hrContent of ['91000', 'pay bands', 'salaries']) {
      expect(text).not.toContain(hrContent);
    }
    if (!row.namesHr) {
      expect(text).not.toContain(MARKER);
      expect(text).not.toContain(seed.hrFact);
      expect(text).not.toContain(seed.hrDoc.replace('document:', ''));
    }
    if (row.rest) {
      const status = await row.rest();
      expect(status >= 200 && status < 300 ? 'ok' : status).toBe(row.expected);
    }
  });

  it('covers every tool and prompt of the live server', () => {
    const surfaces = new Set(ROWS.map((r) => r.surface));
    for (const t of MCP_TOOLS) expect(surfaces, t.name).toContain(t.name);
    for (const p of PROMPTS) expect(surfaces, p.name).toContain(`prompts/get ${p.name}`);
    for (const m of ['resources/list', 'resources/read', 'completion/complete']) {
      expect(surfaces).toContain(m);
    }
  });

  it('completes session ids from the read grant only', async () => {
    const reply = await rpc(scoped, 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'summarize_session' },
      argument: { name: 'session_id', value: '' },
    });
    const values = (reply.body.result as unknown as { completion: { values: string[] } }).completion
      .values;
    expect(values).toContain('eng-1');
    expect(values).not.toContain(HR_SESSION);
  });

  it('completes scopes from the read grant only', async () => {
    const reply = await rpc(scoped, 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'recall_topic' },
      argument: { name: 'scope', value: 'team:' },
    });
    expect(reply.body.result).toMatchObject({ completion: { values: ['team:eng'] } });
  });
});
