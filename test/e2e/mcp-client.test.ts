import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MemoryClient } from '../../sdk/js/src/index.ts';
import { MCP_TOOLS } from '../../src/schemas/mcp-tools.ts';
import { provisionAgent } from '../support/provision.ts';

// The official MCP SDK client against the real `wrangler dev`, over streamable HTTP.
const base = inject('baseUrl');
const admin = new MemoryClient({ baseUrl: base, apiKey: inject('bootstrapKey') });
const CONTEXT = `e2e-mcp-${Date.now()}`;

let agentKey = '';
let client: Client;

async function connect(key: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  const c = new Client({ name: 'e2e-agent', version: '1.0.0' });
  await c.connect(transport);
  return c;
}

interface ToolError {
  status: number;
  type: string;
  title: string;
  detail: string;
}

function errorOf(result: Awaited<ReturnType<Client['callTool']>>): ToolError {
  expect(result.isError).toBe(true);
  return (result.structuredContent as { error: ToolError }).error;
}

beforeAll(async () => {
  agentKey = await provisionAgent(admin, CONTEXT, ['team:a']);
  client = await connect(agentKey);
});

afterAll(async () => {
  await client.close();
});

describe('MCP over streamable HTTP with the official client', () => {
  it('lists the tools of the server card', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(MCP_TOOLS.map((t) => t.name).sort());
  });

  it('remembers and recalls (the quick start)', async () => {
    const stored = await client.callTool({
      name: 'remember',
      arguments: { content: 'Alice prefers answers in German.', scopes: ['team:a/user:alice'] },
    });
    expect(stored.isError).toBeFalsy();
    const found = await client.callTool({
      name: 'recall',
      arguments: { query: 'what language does alice want?', mode: 'hybrid', k: 5 },
    });
    const results = (found.structuredContent as { results: Array<{ content: string }> }).results;
    expect(results[0]?.content).toBe('Alice prefers answers in German.');
  });

  it('uploads a document, inspects it until processed, and forgets it', async () => {
    const up = await client.callTool({
      name: 'upload',
      arguments: {
        filename: 'faq.md',
        text: '# FAQ\n\nRefunds take five days.',
        scopes: ['team:a'],
      },
    });
    const id = (up.structuredContent as { id: string }).id;
    let status = 'queued';
    // Processing runs on the queue consumer; allow for a loaded machine.
    for (let i = 0; i < 300 && status !== 'ready' && status !== 'failed'; i++) {
      const seen = await client.callTool({ name: 'inspect', arguments: { id } });
      status = (seen.structuredContent as { document: { status: string } }).document.status;
      if (status !== 'ready') await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe('ready');
    const gone = await client.callTool({ name: 'forget', arguments: { id } });
    expect(gone.structuredContent).toEqual({ id, deleted: true });
  }, 90_000);

  it('answers chat, context, reflect and consolidate from memory', async () => {
    const chat = await client.callTool({
      name: 'chat',
      arguments: { message: 'What language does Alice prefer?' },
    });
    expect((chat.structuredContent as { answer: string }).answer).toContain('German');
    const block = await client.callTool({ name: 'context', arguments: { query: 'Alice' } });
    expect((block.structuredContent as { context: string }).context).toContain('German');
    const reflect = await client.callTool({ name: 'reflect', arguments: {} });
    expect(reflect.isError).toBeFalsy();
    const consolidate = await client.callTool({
      name: 'consolidate',
      arguments: { dry_run: true },
    });
    expect(consolidate.structuredContent).toMatchObject({ dry_run: true });
  });

  it('searches the documentation', async () => {
    const found = await client.callTool({
      name: 'search_documentation',
      arguments: { query: 'MCP server' },
    });
    expect((found.structuredContent as { results: unknown[] }).results.length).toBeGreaterThan(0);
  });
});

describe('MCP error forms', () => {
  it('reports a scope outside the grant as an isError result with status 403', async () => {
    const result = await client.callTool({
      name: 'remember',
      arguments: { content: 'x', scopes: ['team:b'] },
    });
    expect(errorOf(result)).toMatchObject({ status: 403, title: 'Forbidden' });
  });

  it('reports another Context as 401, never 404', async () => {
    const result = await client.callTool({
      name: 'recall',
      arguments: { query: 'x', context_id: 'e2e-mcp-does-not-exist' },
    });
    expect(errorOf(result)).toMatchObject({ status: 401 });
  });

  it('reports an unknown fact as 404 and a batch over 100 facts as a protocol fault', async () => {
    const missing = await client.callTool({ name: 'inspect', arguments: { id: 'fact_missing' } });
    expect(errorOf(missing).status).toBe(404);
    const tooMany = Array.from({ length: 101 }, (_, i) => ({
      content: `f${i}`,
      scopes: ['team:a'],
    }));
    await expect(
      client.callTool({ name: 'remember', arguments: { facts: tooMany } }),
    ).rejects.toThrow(McpError);
  });

  it('raises a JSON-RPC error for an unknown tool and for bad arguments', async () => {
    await expect(client.callTool({ name: 'teleport', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(
      client.callTool({ name: 'recall', arguments: { query: 'x', mode: 'fuzzy' } }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it('refuses to connect with a bad key: HTTP 401 with WWW-Authenticate', async () => {
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer mem_agent_wrongwrongwrongwrongwrong',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain(
      `resource_metadata="${base}/.well-known/oauth-protected-resource"`,
    );
    await expect(connect('mem_agent_wrongwrongwrongwrongwrong')).rejects.toThrow();
  });
});
