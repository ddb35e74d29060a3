import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import {
  BOOTSTRAP,
  callTool,
  contextWithKey,
  finalOf,
  ORIGIN,
  rpc,
  rpcMessages,
  type RpcMessage,
} from './mcp-client.ts';

const INIT = {
  protocolVersion: LATEST_PROTOCOL_VERSION,
  capabilities: {},
  clientInfo: { name: 'protocol-test', version: '1.0.0' },
};

function structured(m: RpcMessage | undefined): Record<string, unknown> {
  return (m?.result?.structuredContent ?? {}) as Record<string, unknown>;
}

describe('MCP Origin and Host checks (DNS rebinding)', () => {
  it('answers a foreign Origin with 403, a JSON-RPC error and no CORS header', async () => {
    const key = await contextWithKey('mcp-origin-1');
    const reply = await rpcMessages(key, 'initialize', INIT, { origin: 'http://evil.example.com' });
    expect(reply.status).toBe(403);
    expect(reply.messages[0]?.error?.code).toBe(-32600);
    expect(reply.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a foreign Origin on the preflight too, before the OAuth layer echoes it', async () => {
    const res = await exports.default.fetch(`${ORIGIN}/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers a foreign Host with 403', async () => {
    const key = await contextWithKey('mcp-origin-2');
    const reply = await rpcMessages(key, 'ping', {}, { host: 'evil.example.com' });
    expect(reply.status).toBe(403);
    expect(reply.messages[0]?.error?.message).toContain('evil.example.com');
  });

  it('accepts no Origin, the own site origin (CORS names exactly it) and loopback locally', async () => {
    const key = await contextWithKey('mcp-origin-3');
    expect((await rpcMessages(key, 'ping')).status).toBe(200);
    const own = await rpcMessages(key, 'ping', {}, { origin: 'https://engram.example' });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe('https://engram.example');
    const local = await rpcMessages(
      key,
      'ping',
      {},
      { host: '127.0.0.1:8787', origin: 'http://localhost:5173' },
    );
    expect(local.status).toBe(200);
    // A loopback Origin is only trusted when the service itself is reached on loopback.
    const remote = await rpcMessages(key, 'ping', {}, { origin: 'http://localhost:5173' });
    expect(remote.status).toBe(403);
  });
});

describe('MCP initialize', () => {
  it('declares tools, resources (subscribe), prompts, completions and logging', async () => {
    const key = await contextWithKey('mcp-init-1');
    const reply = await rpcMessages(key, 'initialize', INIT);
    const result = finalOf(reply.messages)?.result;
    expect(result?.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(result?.capabilities).toMatchObject({
      tools: {},
      resources: { subscribe: true },
      prompts: {},
      completions: {},
      logging: {},
    });
  });
});

describe('MCP server card', () => {
  it('lists the live capabilities, prompts and resource templates', async () => {
    const key = await contextWithKey('mcp-card-1');
    const init = finalOf((await rpcMessages(key, 'initialize', INIT)).messages)?.result;
    const res = await exports.default.fetch(`${ORIGIN}/.well-known/mcp/server-card.json`);
    expect(res.status).toBe(200);
    const card = (await res.json()) as Record<string, unknown>;
    expect(card.version).toBe((init?.serverInfo as { version: string }).version);
    expect(Object.keys(card.capabilities as object).sort()).toEqual(
      Object.keys(init?.capabilities as object).sort(),
    );
    const prompts = (await rpc(key, 'prompts/list')).body.result as unknown as {
      prompts: unknown[];
    };
    expect(card.prompts).toEqual(prompts.prompts);
    const templates = (await rpc(key, 'resources/templates/list')).body.result as unknown as {
      resourceTemplates: unknown[];
    };
    expect(card.resourceTemplates).toEqual(templates.resourceTemplates);
  });
});

describe('MCP logging and progress', () => {
  it('streams progress of a long tool when the call carries a progress token', async () => {
    const key = await contextWithKey('mcp-progress-1');
    await callTool(key, 'remember', { content: 'The on-call rota changes on Mondays.' });
    const reply = await rpcMessages(key, 'tools/call', {
      name: 'reflect',
      arguments: {},
      _meta: { progressToken: 'p-1' },
    });
    expect(reply.headers.get('content-type')).toContain('text/event-stream');
    const progress = reply.messages.filter((m) => m.method === 'notifications/progress');
    expect(progress.map((m) => m.params?.progress)).toEqual([0, 1]);
    expect(progress.every((m) => m.params?.progressToken === 'p-1')).toBe(true);
    expect(structured(finalOf(reply.messages))).toMatchObject({ persisted: false });
  });

  it('answers plain JSON without a progress token or a log level', async () => {
    const key = await contextWithKey('mcp-progress-2');
    const reply = await rpcMessages(key, 'tools/call', { name: 'reflect', arguments: {} });
    expect(reply.headers.get('content-type')).toContain('application/json');
    expect(reply.messages).toHaveLength(1);
  });

  it('keeps the level set with logging/setLevel and sends tool errors as log messages', async () => {
    const key = await contextWithKey('mcp-logging-1');
    const set = await rpc(key, 'logging/setLevel', { level: 'warning' });
    expect(set.body.result).toEqual({});
    const failed = await rpcMessages(key, 'tools/call', {
      name: 'inspect',
      arguments: { id: 'fact_doesnotexist' },
    });
    const logs = failed.messages.filter((m) => m.method === 'notifications/message');
    expect(logs).toHaveLength(1);
    expect(logs[0]?.params).toMatchObject({
      level: 'error',
      logger: 'engram.tools.inspect',
      data: { tool: 'inspect', error: { status: 404 } },
    });
    expect(finalOf(failed.messages)?.result?.isError).toBe(true);
    // Above the level: nothing but the result.
    await rpc(key, 'logging/setLevel', { level: 'emergency' });
    const quiet = await rpcMessages(key, 'tools/call', {
      name: 'inspect',
      arguments: { id: 'fact_doesnotexist' },
    });
    expect(quiet.messages.filter((m) => m.method === 'notifications/message')).toEqual([]);
  });

  it('refuses an unknown log level as invalid params', async () => {
    const key = await contextWithKey('mcp-logging-2');
    const reply = await rpc(key, 'logging/setLevel', { level: 'loud' });
    expect(reply.body.error?.code).toBe(-32602);
  });
});

describe('MCP tools added for issue 14', () => {
  it('updates a fact as a new version and lists its history', async () => {
    const key = await contextWithKey('mcp-update-1');
    const stored = await callTool(key, 'remember', {
      content: 'Dana lives in Porto.',
      scopes: ['team:a'],
    });
    const first = (stored.body.result?.structuredContent?.facts as Array<{ id: string }>)[0];
    const id = first?.id ?? '';
    const updated = await callTool(key, 'update_fact', { id, content: 'Dana lives in Braga.' });
    expect(updated.body.result?.isError).toBeFalsy();
    const next = updated.body.result?.structuredContent as {
      fact: { id: string; content: string; scopes: string[] };
      replaces: string;
    };
    expect(next.replaces).toBe(id);
    expect(next.fact).toMatchObject({ content: 'Dana lives in Braga.', scopes: ['team:a'] });
    const history = await callTool(key, 'fact_history', { id: next.fact.id });
    const versions = history.body.result?.structuredContent?.versions as Array<{
      id: string;
      valid_until: string | null;
      superseded_by: string | null;
    }>;
    expect(versions.map((v) => v.id)).toEqual([id, next.fact.id]);
    expect(versions[0]?.superseded_by).toBe(next.fact.id);
    expect(versions[0]?.valid_until).toBeTruthy();
    // The closed version cannot be updated again: 409 names the current path.
    const again = await callTool(key, 'update_fact', { id, content: 'Dana lives in Faro.' });
    expect(again.body.result?.structuredContent?.error).toMatchObject({ status: 409 });
  });

  it('lists facts page by page with a cursor', async () => {
    const key = await contextWithKey('mcp-list-facts-1');
    await callTool(key, 'remember', {
      facts: Array.from({ length: 5 }, (_, i) => ({ content: `Fact number ${i}.` })),
    });
    const seen: string[] = [];
    let cursor: string | null | undefined;
    for (let page = 0; page < 5; page++) {
      const reply = await callTool(key, 'list_facts', {
        limit: 2,
        ...(cursor ? { cursor } : {}),
      });
      const body = reply.body.result?.structuredContent as {
        facts: Array<{ content: string }>;
        next_cursor: string | null;
      };
      seen.push(...body.facts.map((f) => f.content));
      cursor = body.next_cursor;
      if (cursor === null) break;
    }
    expect(seen).toEqual(Array.from({ length: 5 }, (_, i) => `Fact number ${i}.`));
    const bad = await callTool(key, 'list_facts', { cursor: 'not-a-cursor' });
    expect(bad.body.result?.structuredContent?.error).toMatchObject({ status: 400 });
  });

  it('adds turns to a session it creates on first use', async () => {
    const key = await contextWithKey('mcp-turn-1');
    const first = await callTool(key, 'add_turn', {
      session_id: 'chat-1',
      role: 'user',
      content: 'Hello there.',
    });
    expect(first.body.result?.structuredContent).toMatchObject({
      session_created: true,
      turn: { session_id: 'chat-1', role: 'user' },
    });
    const second = await callTool(key, 'add_turn', {
      session_id: 'chat-1',
      role: 'assistant',
      content: 'Hi!',
    });
    expect(second.body.result?.structuredContent).toMatchObject({ session_created: false });
    const read = await rpc(key, 'resources/read', { uri: 'memory://mcp-turn-1/sessions/chat-1' });
    const contents = (read.body.result as { contents: Array<{ text: string }> }).contents;
    const session = JSON.parse(contents[0]?.text ?? '{}') as {
      turns: Array<{ content: string }>;
    };
    expect(session.turns.map((t) => t.content)).toEqual(['Hello there.', 'Hi!']);
  });

  it('lists entities mentioned by readable facts, by prefix', async () => {
    const key = await contextWithKey('mcp-entities-1');
    await callTool(key, 'remember', { content: 'Maria Lopez works with Tom Baker in Lisbon.' });
    const all = await callTool(key, 'list_entities', {});
    const names = (all.body.result?.structuredContent?.entities as Array<{ display: string }>).map(
      (e) => e.display,
    );
    expect(names.length).toBeGreaterThan(0);
    const first = names[0] ?? '';
    const narrowed = await callTool(key, 'list_entities', { prefix: first.slice(0, 2) });
    const narrowedNames = (
      narrowed.body.result?.structuredContent?.entities as Array<{ display: string }>
    ).map((e) => e.display);
    expect(narrowedNames).toContain(first);
    expect(
      narrowedNames.every((n) => n.toLowerCase().startsWith(first.slice(0, 2).toLowerCase())),
    ).toBe(true);
  });

  it('reports a document’s status and its resource URI', async () => {
    const key = await contextWithKey('mcp-docstatus-1');
    const up = await callTool(key, 'upload', { filename: 'a.md', text: '# A\n\nAlpha.' });
    const id = up.body.result?.structuredContent?.id as string;
    const status = await callTool(key, 'document_status', { id });
    expect(status.body.result?.structuredContent).toMatchObject({
      id,
      uri: `memory://mcp-docstatus-1/documents/${encodeURIComponent(id)}`,
    });
    expect(['queued', 'extracting', 'chunking', 'embedding', 'ready']).toContain(
      status.body.result?.structuredContent?.status,
    );
  });

  it('gives every tool all four annotations and an output schema', async () => {
    const key = await contextWithKey('mcp-annotations-1');
    const reply = await rpc(key, 'tools/list');
    const tools = (reply.body.result?.tools ?? []) as Array<{
      name: string;
      annotations?: Record<string, unknown>;
      outputSchema?: unknown;
    }>;
    expect(tools.length).toBe(16);
    for (const tool of tools) {
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) {
        expect(typeof tool.annotations?.[hint], `${tool.name}.${hint}`).toBe('boolean');
      }
      expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' });
    }
  });
});

describe('MCP resources', () => {
  it('lists the context block, sessions, documents and facts in pages with a cursor', async () => {
    const key = await contextWithKey('mcp-res-list-1');
    await callTool(key, 'remember', {
      facts: Array.from({ length: 60 }, (_, i) => ({ content: `Listed fact ${i}.` })),
    });
    await callTool(key, 'add_turn', { session_id: 's-1', role: 'user', content: 'hi' });
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const reply = await rpc(key, 'resources/list', cursor ? { cursor } : {});
      const result = reply.body.result as unknown as {
        resources: Array<{ uri: string; name: string }>;
        nextCursor?: string;
      };
      expect(result.resources.length).toBeLessThanOrEqual(50);
      uris.push(...result.resources.map((r) => r.uri));
      cursor = result.nextCursor;
      pages++;
    } while (cursor !== undefined && pages < 10);
    expect(pages).toBe(2);
    expect(uris[0]).toBe('memory://mcp-res-list-1/context');
    expect(uris[1]).toBe('memory://mcp-res-list-1/sessions/s-1');
    expect(uris.filter((u) => u.includes('/facts/'))).toHaveLength(60);
    expect(new Set(uris).size).toBe(uris.length);
    const bad = await rpc(key, 'resources/list', { cursor: 'nonsense' });
    expect(bad.body.error?.code).toBe(-32602);
  });

  it('lists the URI templates and reads a fact, a document and the context block', async () => {
    const key = await contextWithKey('mcp-res-read-1');
    const templates = await rpc(key, 'resources/templates/list');
    const list = (
      templates.body.result as unknown as { resourceTemplates: Array<{ uriTemplate: string }> }
    ).resourceTemplates;
    expect(list.map((t) => t.uriTemplate)).toEqual([
      'memory://{context_id}/facts/{fact_id}',
      'memory://{context_id}/sessions/{session_id}',
      'memory://{context_id}/documents/{document_id}',
      'memory://{context_id}/context',
    ]);
    const stored = await callTool(key, 'remember', { content: 'The VPN host is vpn.internal.' });
    const id = (stored.body.result?.structuredContent?.facts as Array<{ id: string }>)[0]?.id;
    const fact = await rpc(key, 'resources/read', { uri: `memory://mcp-res-read-1/facts/${id}` });
    const factText = (fact.body.result as { contents: Array<{ text: string }> }).contents[0]?.text;
    expect(JSON.parse(factText ?? '{}')).toMatchObject({
      id,
      content: 'The VPN host is vpn.internal.',
    });
    const block = await rpc(key, 'resources/read', { uri: 'memory://mcp-res-read-1/context' });
    expect(
      (block.body.result as { contents: Array<{ text: string; mimeType: string }> }).contents[0],
    ).toMatchObject({ mimeType: 'text/plain' });
    const up = await callTool(key, 'upload', { filename: 'n.md', text: '# N\n\nNotes.' });
    const uri = up.body.result?.structuredContent?.uri as string;
    const doc = await rpc(key, 'resources/read', { uri });
    const docText = (doc.body.result as { contents: Array<{ text: string }> }).contents[0]?.text;
    expect(JSON.parse(docText ?? '{}')).toMatchObject({ filename: 'n.md' });
    expect(JSON.parse(docText ?? '{}')).toHaveProperty('status');
  });

  it('answers unknown and missing resources with JSON-RPC errors', async () => {
    const key = await contextWithKey('mcp-res-read-2');
    const unknown = await rpc(key, 'resources/read', { uri: 'file:///etc/passwd' });
    expect(unknown.body.error?.code).toBe(-32602);
    const missing = await rpc(key, 'resources/read', {
      uri: 'memory://mcp-res-read-2/facts/fact_missing',
    });
    expect(missing.body.error?.code).toBe(-32002);
    // Another Context by URI: 401-style refusal, never its content.
    const other = await rpc(key, 'resources/read', { uri: 'memory://someone-else/context' });
    expect(other.body.error?.message).toContain('401');
  });

  it('subscribes and unsubscribes (kept per credential between requests)', async () => {
    const key = await contextWithKey('mcp-res-sub-1');
    const uri = 'memory://mcp-res-sub-1/documents/document:doc_x';
    expect((await rpc(key, 'resources/subscribe', { uri })).body.result).toEqual({});
    expect((await rpc(key, 'resources/unsubscribe', { uri })).body.result).toEqual({});
    const bad = await rpc(key, 'resources/subscribe', { uri: 'not a uri' });
    expect(bad.body.error?.code).toBe(-32602);
  });

  it('notifies a subscriber when a watched document finishes processing', async () => {
    const key = await contextWithKey('mcp-res-sub-2');
    const up = await callTool(key, 'upload', { filename: 'w.md', text: '# W\n\nWatched.' });
    const { id, uri } = up.body.result?.structuredContent as { id: string; uri: string };
    await rpc(key, 'resources/subscribe', { uri });
    const watched = await rpcMessages(key, 'tools/call', {
      name: 'document_status',
      arguments: { id, wait_seconds: 30 },
      _meta: { progressToken: 7 },
    });
    const final = structured(finalOf(watched.messages));
    expect(final.finished).toBe(true);
    const updates = watched.messages.filter((m) => m.method === 'notifications/resources/updated');
    expect(updates.map((m) => m.params?.uri)).toEqual([uri]);
    const progress = watched.messages.filter((m) => m.method === 'notifications/progress');
    expect(progress.at(-1)?.params).toMatchObject({ progress: 5, total: 5, progressToken: 7 });
  });
});

describe('MCP prompts and completions', () => {
  it('lists three prompts with arguments and fills them from memory', async () => {
    const key = await contextWithKey('mcp-prompts-1');
    const listed = await rpc(key, 'prompts/list');
    const prompts = (
      listed.body.result as unknown as {
        prompts: Array<{ name: string; arguments: Array<{ name: string; required: boolean }> }>;
      }
    ).prompts;
    expect(prompts.map((p) => p.name)).toEqual([
      'recall_topic',
      'summarize_session',
      'about_person',
    ]);
    await callTool(key, 'remember', { content: 'Priya Shah owns the billing service.' });
    const topic = await rpc(key, 'prompts/get', {
      name: 'recall_topic',
      arguments: { topic: 'billing service' },
    });
    expect(JSON.stringify(topic.body.result)).toContain('Priya Shah owns the billing service.');
    const person = await rpc(key, 'prompts/get', {
      name: 'about_person',
      arguments: { name: 'Priya Shah' },
    });
    expect(JSON.stringify(person.body.result)).toContain('billing');
    await callTool(key, 'add_turn', {
      session_id: 'standup',
      role: 'user',
      content: 'Ship Friday.',
    });
    const summary = await rpc(key, 'prompts/get', {
      name: 'summarize_session',
      arguments: { session_id: 'standup' },
    });
    expect(JSON.stringify(summary.body.result)).toContain('user: Ship Friday.');
    const missing = await rpc(key, 'prompts/get', { name: 'recall_topic', arguments: {} });
    expect(missing.body.error?.code).toBe(-32602);
    const unknown = await rpc(key, 'prompts/get', { name: 'nope', arguments: {} });
    expect(unknown.body.error?.code).toBe(-32602);
  });

  it('completes context ids, session ids, scopes and entity names', async () => {
    const key = await contextWithKey('mcp-complete-1', {
      'memory:read': ['team:eng', 'team:eng/user:ana', 'team:ops'],
      'memory:write': ['team:eng'],
      'memory:forget': [],
    });
    const turn = (session_id: string, scopes: string[]) => ({
      context_id: 'mcp-complete-1',
      session_id,
      role: 'user',
      content: 'x',
      scopes,
    });
    // Sessions carry scopes: the key creates one in its write grant; the root key adds one it
    // may read (team:ops), one outside its grant (team:hr) and an unscoped one (root only).
    const made = await callTool(key, 'add_turn', turn('retro-1', ['team:eng']));
    expect(made.body.result?.structuredContent).toMatchObject({ session_created: true });
    await callTool(BOOTSTRAP, 'add_turn', turn('retro-ops', ['team:ops']));
    await callTool(BOOTSTRAP, 'add_turn', turn('retro-hr', ['team:hr']));
    await callTool(BOOTSTRAP, 'add_turn', turn('retro-root', []));
    await callTool(key, 'remember', {
      content: 'Ravi Kumar maintains the ingest pipeline.',
      scopes: ['team:eng'],
    });
    const values = async (argument: { name: string; value: string }, ref = 'recall_topic') => {
      const reply = await rpc(key, 'completion/complete', {
        ref: { type: 'ref/prompt', name: ref },
        argument,
      });
      return (reply.body.result as unknown as { completion: { values: string[] } }).completion
        .values;
    };
    expect(await values({ name: 'context_id', value: 'mcp-c' })).toEqual(['mcp-complete-1']);
    expect(await values({ name: 'context_id', value: 'other' })).toEqual([]);
    expect(await values({ name: 'scope', value: 'team:e' })).toEqual([
      'team:eng',
      'team:eng/user:ana',
    ]);
    // Only the sessions the key can read are offered.
    expect(await values({ name: 'session_id', value: 'ret' }, 'summarize_session')).toEqual([
      'retro-1',
      'retro-ops',
    ]);
    const names = await values({ name: 'name', value: 'rav' }, 'about_person');
    expect(names.some((n) => n.toLowerCase().startsWith('rav'))).toBe(true);
  });
});
