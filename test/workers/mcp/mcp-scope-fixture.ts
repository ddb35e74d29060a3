import { exports } from 'cloudflare:workers';
import { callTool, contextWithKey, keyOn, ORIGIN, rpc, type JsonRpcReply } from './mcp-client.ts';

// The Context, keys and seeded memories of mcp-scopes.test.ts, and how a row's call is made and
// judged; the rows are in mcp-scope-rows.ts.

export const CTX = 'mcp-scoped-table';
export const MARKER = 'Zanzibar';
export const ENG = ['team:eng'];
export const HR_SESSION = 'hr-1';

export interface Seed {
  hrFact: string;
  engFact: string;
  hrDoc: string;
  engDoc: string;
}

export let root = '';
export let scoped = '';
export let readOnly = '';
export const seed: Seed = { hrFact: '', engFact: '', hrDoc: '', engDoc: '' };

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

/** Issues the keys and writes the HR and engineering memories every row runs against. */
export async function seedScopeFixture(): Promise<void> {
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
}

/** What a row's call came to: a success, or the HTTP-style status of its refusal. */
export type Outcome = 'ok' | number;

export function outcomeOf(reply: JsonRpcReply): Outcome {
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

export async function rest(
  method: string,
  path: string,
  key: string,
  body?: unknown,
): Promise<number> {
  const res = await exports.default.fetch(`${ORIGIN}/api/v1/${CTX}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await res.body?.cancel();
  return res.status;
}

export interface Row {
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

export const tool = (key: () => string, name: string, args: () => Record<string, unknown>) => () =>
  callTool(key(), name, args());
export const method =
  (key: () => string, name: string, params: () => Record<string, unknown>) => () =>
    rpc(key(), name, params());
export const eng = () => scoped;
export const reader = () => readOnly;
export const uri = (kind: string, id: string) =>
  `memory://${CTX}/${kind}/${encodeURIComponent(id)}`;
