import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ALL, BOOTSTRAP, call, json, unique, type GrantsInput } from '../memory/helpers.ts';
import { OAUTH_ORIGIN, oauthToken } from './oauth-token.ts';

// Issue 15 item 8, MCP half: every tool x credential (key kinds, grants, OAuth tokens), with the
// status it must answer: the HTTP status when the credential is refused, else the tool result's
// `error.status` (200 when the tool succeeds). One row per case.

const CREDS = [
  'root',
  'bound',
  'otherMgmt',
  'agent',
  'supervisor',
  'reader',
  'scoped', // agent granted team:a; its calls name team:b
  'revoked',
  'otherAgent',
  'none',
  'oauth', // OAuth access token with the agent key's whole grant
  'oauthRead', // OAuth access token with memory:read only
  'oauthRevoked', // OAuth access token whose key was revoked since
] as const;
type Cred = (typeof CREDS)[number];

type Need = 'any' | 'read' | 'write' | 'forget' | 'supervise';

const OK = 200;
// A credential of another Context is 401 on MCP, where REST says 403: MCP answers "unknown
// Context, or this credential is not valid for it" for both, so tools cannot enumerate Contexts.
const POLICY: Record<Need, Record<Cred, number>> = {
  // prettier-ignore
  any:       { root: OK, bound: OK,  otherMgmt: OK,  agent: OK,  supervisor: OK,  reader: OK,  scoped: OK,  revoked: 401, otherAgent: OK,  none: 401, oauth: OK,  oauthRead: OK,  oauthRevoked: 401 },
  // prettier-ignore
  read:      { root: OK, bound: OK,  otherMgmt: 401, agent: OK,  supervisor: OK,  reader: OK,  scoped: 403, revoked: 401, otherAgent: 401, none: 401, oauth: OK,  oauthRead: OK,  oauthRevoked: 401 },
  // prettier-ignore
  write:     { root: OK, bound: OK,  otherMgmt: 401, agent: OK,  supervisor: OK,  reader: 403, scoped: 403, revoked: 401, otherAgent: 401, none: 401, oauth: OK,  oauthRead: 403, oauthRevoked: 401 },
  // prettier-ignore
  forget:    { root: OK, bound: OK,  otherMgmt: 401, agent: OK,  supervisor: OK,  reader: 403, scoped: 403, revoked: 401, otherAgent: 401, none: 401, oauth: OK,  oauthRead: 403, oauthRevoked: 401 },
  // prettier-ignore
  supervise: { root: OK, bound: OK,  otherMgmt: 401, agent: 403, supervisor: OK,  reader: 403, scoped: 403, revoked: 401, otherAgent: 401, none: 401, oauth: 403, oauthRead: 403, oauthRevoked: 401 },
};

let addresses = 0;

class World {
  readonly ctx = unique('mcp-sec');
  readonly other = unique('mcp-sec-other');
  private readonly creds = new Map<Cred, string | null>();

  async init(): Promise<this> {
    for (const id of [this.ctx, this.other]) {
      expect((await call('POST', '/api/v1/contexts', { body: { id } })).status).toBe(201);
    }
    return this;
  }

  private async issue(
    ctx: string,
    kind: 'agent' | 'supervisor' | 'management',
    grants: GrantsInput,
  ) {
    const principal = await call('POST', '/api/v1/principals', {
      body: { kind, display_name: unique(kind) },
    });
    const res = await call('POST', '/api/v1/keys', {
      body: { principal_id: (await json<{ id: string }>(principal)).id, context_id: ctx, grants },
    });
    expect(res.status).toBe(201);
    return json<{ id: string; key: string }>(res);
  }

  private async make(name: Cred): Promise<string | null> {
    addresses += 1;
    const address = `203.0.113.${addresses}`;
    switch (name) {
      case 'root':
        return BOOTSTRAP;
      case 'none':
        return null;
      case 'bound':
        return (await this.issue(this.ctx, 'management', ALL)).key;
      case 'otherMgmt':
        return (await this.issue(this.other, 'management', ALL)).key;
      case 'supervisor':
        return (await this.issue(this.ctx, 'supervisor', ALL)).key;
      case 'otherAgent':
        return (await this.issue(this.other, 'agent', ALL)).key;
      case 'reader':
        return (await this.issue(this.ctx, 'agent', { 'memory:read': ['*'] })).key;
      case 'scoped': {
        const team = ['team:a'];
        const grants = { 'memory:read': team, 'memory:write': team, 'memory:forget': team };
        return (await this.issue(this.ctx, 'agent', grants)).key;
      }
      case 'revoked': {
        const issued = await this.issue(this.ctx, 'agent', ALL);
        expect((await call('DELETE', `/api/v1/keys/${issued.id}`)).status).toBe(204);
        return issued.key;
      }
      case 'oauth':
        return oauthToken(
          (await this.issue(this.ctx, 'agent', ALL)).key,
          { read: '*', write: '*', forget: '*' },
          address,
        );
      case 'oauthRead':
        return oauthToken((await this.issue(this.ctx, 'agent', ALL)).key, { read: '*' }, address);
      case 'oauthRevoked': {
        const issued = await this.issue(this.ctx, 'agent', ALL);
        const token = await oauthToken(issued.key, { read: '*', write: '*' }, address);
        expect((await call('DELETE', `/api/v1/keys/${issued.id}`)).status).toBe(204);
        return token;
      }
      case 'agent':
        return (await this.issue(this.ctx, 'agent', ALL)).key;
    }
  }

  async cred(name: Cred): Promise<string | null> {
    if (!this.creds.has(name)) this.creds.set(name, await this.make(name));
    return this.creds.get(name) ?? null;
  }

  /** A fact in team:b, made with the root key: outside the scoped credential's grant. */
  async fact(): Promise<string> {
    const res = await call('POST', `/api/v1/${this.ctx}/facts`, {
      body: { content: `Fixture fact ${unique('f')}`, scopes: ['team:b'] },
    });
    return (await json<{ facts: { id: string }[] }>(res)).facts[0]?.id ?? '';
  }

  /** A session in team:b, made with the root key: outside the scoped credential's grant. */
  async session(): Promise<string> {
    const id = unique('table-session');
    const res = await call('POST', `/api/v1/${this.ctx}/sessions`, {
      body: { id, scopes: ['team:b'] },
    });
    expect(res.status).toBe(201);
    return id;
  }

  /** A document in team:b, made with the root key: outside the scoped credential's grant. */
  async document(): Promise<string> {
    const res = await call('POST', `/api/v1/${this.ctx}/documents?filename=f.md&scopes=team:b`, {
      rawBody: `# Fixture ${unique('d')}\n\nSome text.`,
      headers: { 'content-type': 'text/markdown' },
    });
    expect(res.status).toBe(202);
    return `document:${(await json<{ id: string }>(res)).id.replace(/^document:/, '')}`;
  }
}

interface Tool {
  name: string;
  tool: string;
  need: Need;
  args: (w: World, scope: string) => Promise<Record<string, unknown>>;
  except?: Partial<Record<Cred, number>>;
}

const TOOLS: Tool[] = [
  {
    name: 'remember',
    tool: 'remember',
    need: 'write',
    args: async (w, scope) => ({ context_id: w.ctx, content: 'MCP table fact', scopes: [scope] }),
  },
  {
    name: 'recall',
    tool: 'recall',
    need: 'read',
    args: async (w, scope) => ({
      context_id: w.ctx,
      query: 'fixture',
      mode: 'bm25',
      lens: [scope],
    }),
  },
  {
    name: 'forget',
    tool: 'forget',
    need: 'forget',
    // A fact outside the grant is absent to the caller (404), not forbidden.
    except: { scoped: 404 },
    args: async (w) => ({ context_id: w.ctx, id: await w.fact() }),
  },
  {
    name: 'inspect',
    tool: 'inspect',
    need: 'read',
    except: { scoped: 404 },
    args: async (w) => ({ context_id: w.ctx, id: await w.fact() }),
  },
  {
    name: 'context',
    tool: 'context',
    need: 'read',
    // No lens on this tool: the block is drawn from the credential's whole read grant.
    except: { scoped: OK },
    args: async (w) => ({ context_id: w.ctx, query: 'fixture' }),
  },
  {
    name: 'chat',
    tool: 'chat',
    need: 'read',
    args: async (w, scope) => ({
      context_id: w.ctx,
      message: 'What is the fixture?',
      lens: [scope],
    }),
  },
  {
    name: 'reflect',
    tool: 'reflect',
    need: 'read',
    args: async (w, scope) => ({ context_id: w.ctx, lens: [scope] }),
  },
  {
    name: 'reflect (persist)',
    tool: 'reflect',
    need: 'supervise',
    args: async (w, scope) => ({ context_id: w.ctx, lens: [scope], persist: true }),
  },
  {
    name: 'consolidate (dry run)',
    tool: 'consolidate',
    need: 'write',
    args: async (w, scope) => ({ context_id: w.ctx, lens: [scope], dry_run: true }),
  },
  {
    name: 'upload',
    tool: 'upload',
    need: 'write',
    args: async (w, scope) => ({
      context_id: w.ctx,
      filename: 'notes.md',
      text: `# Notes ${unique('n')}`,
      scopes: [scope],
    }),
  },
  {
    name: 'update_fact',
    tool: 'update_fact',
    // Closing the old version is a write over its scopes; a fact outside the read grant is absent.
    need: 'write',
    except: { scoped: 404 },
    args: async (w) => ({ context_id: w.ctx, id: await w.fact(), content: 'MCP table update' }),
  },
  {
    name: 'list_facts',
    tool: 'list_facts',
    need: 'read',
    args: async (w, scope) => ({ context_id: w.ctx, lens: [scope] }),
  },
  {
    name: 'fact_history',
    tool: 'fact_history',
    need: 'read',
    except: { scoped: 404 },
    args: async (w) => ({ context_id: w.ctx, id: await w.fact() }),
  },
  {
    name: "add_turn (a new session in the request's scope)",
    tool: 'add_turn',
    // Sessions carry scopes set inside the creator's write grant: team:b is outside the scoped
    // credential's.
    need: 'write',
    args: async (w, scope) => ({
      context_id: w.ctx,
      session_id: unique('mcp-session'),
      scopes: [scope],
      role: 'user',
      content: 'Hello',
    }),
  },
  {
    name: 'add_turn (a session in team:b)',
    tool: 'add_turn',
    // A session outside the read grant is absent to the scoped credential (404), as on REST.
    need: 'write',
    except: { scoped: 404 },
    args: async (w) => ({
      context_id: w.ctx,
      session_id: await w.session(),
      scopes: ['team:a'],
      role: 'user',
      content: 'Hello',
    }),
  },
  {
    name: 'list_entities',
    tool: 'list_entities',
    need: 'read',
    // No lens: entities come from the facts inside the credential's read grant.
    except: { scoped: OK },
    args: async (w) => ({ context_id: w.ctx }),
  },
  {
    name: 'document_status',
    tool: 'document_status',
    need: 'read',
    except: { scoped: 404 },
    args: async (w) => ({ context_id: w.ctx, id: await w.document() }),
  },
  {
    name: 'search_documentation',
    tool: 'search_documentation',
    need: 'any',
    args: async () => ({ query: 'hybrid search' }),
  },
];

/** The HTTP status if the call was refused, else the tool's own error status, else 200. */
async function toolStatus(cred: string | null, tool: string, args: Record<string, unknown>) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  if (cred !== null) headers.authorization = `Bearer ${cred}`;
  const res = await exports.default.fetch(`${OAUTH_ORIGIN}/mcp`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: tool, arguments: args },
    }),
  });
  const text = await res.text();
  if (res.status !== 200) return { status: res.status, text };
  const body = JSON.parse(text) as {
    result?: { isError?: boolean; structuredContent?: { error?: { status?: number } } };
    error?: { message: string };
  };
  if (body.error) return { status: -1, text };
  const err = body.result?.structuredContent?.error;
  return { status: body.result?.isError ? (err?.status ?? -1) : 200, text };
}

const CASES = TOOLS.flatMap((tool) =>
  CREDS.map((cred) => ({ tool, cred, expected: tool.except?.[cred] ?? POLICY[tool.need][cred] })),
);

let shared: World | undefined;

describe('security table: every MCP tool x credential', () => {
  it('covers every tool the server lists', async () => {
    const res = await exports.default.fetch(`${OAUTH_ORIGIN}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${BOOTSTRAP}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    const body = (await res.json()) as { result: { tools: { name: string }[] } };
    const listed = body.result.tools.map((t) => t.name).sort();
    expect([...new Set(TOOLS.map((t) => t.tool))].sort()).toEqual(listed);
  });

  it.each(CASES.map((c) => [c.tool.name, c.cred, c.expected, c] as const))(
    '%s with %s -> %i',
    async (_name, credName, expected, c) => {
      shared ??= await new World().init();
      const w = shared;
      const args = await c.tool.args(w, credName === 'scoped' ? 'team:b' : 'team:a');
      const { status, text } = await toolStatus(await w.cred(credName), c.tool.tool, args);
      expect(status, text.slice(0, 300)).toBe(expected);
      if (credName === 'scoped') {
        expect(text).not.toContain('Fixture');
        expect(text).not.toContain('"team:b"');
      }
    },
  );
});
