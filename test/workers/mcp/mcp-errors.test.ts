import { describe, expect, it } from 'vitest';
import { BOOTSTRAP, callTool, contextWithKey, ORIGIN, rpc } from './mcp-client.ts';
import { exports } from 'cloudflare:workers';

const METADATA = `Bearer resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource"`;

describe('MCP auth failures are HTTP 401 with WWW-Authenticate', () => {
  it('answers 401 without a bearer token', async () => {
    const reply = await rpc(null, 'tools/list');
    expect(reply.status).toBe(401);
    expect(reply.headers.get('www-authenticate')).toBe(METADATA);
    expect(reply.body).toMatchObject({ status: 401, title: 'Unauthorized' });
  });

  it('answers 401 for a malformed or unknown key', async () => {
    for (const key of ['not-a-key', 'mem_agent_unknownunknownunknown0000']) {
      const reply = await rpc(key, 'tools/list');
      expect(reply.status, key).toBe(401);
      expect(reply.headers.get('www-authenticate'), key).toBe(METADATA);
    }
  });

  it('refuses GET (no standalone stream on a stateless server)', async () => {
    const res = await exports.default.fetch(`${ORIGIN}/mcp`, {
      headers: { authorization: `Bearer ${BOOTSTRAP}`, accept: 'text/event-stream' },
    });
    expect(res.status).toBe(405);
  });
});

describe('MCP operation failures are isError tool results over HTTP 200', () => {
  it('reports another Context as 401, never 403 or 404', async () => {
    const key = await contextWithKey('mcp-err-ctx-1');
    const reply = await callTool(key, 'recall', { query: 'x', context_id: 'mcp-err-other' });
    expect(reply.status).toBe(200);
    expect(reply.body.result?.isError).toBe(true);
    expect(reply.body.result?.structuredContent?.error).toMatchObject({
      status: 401,
      title: 'Unauthorized',
      type: `${ORIGIN}/errors/unauthorized`,
    });
  });

  it('reports a missing Context as 401 for a key that may reach every Context', async () => {
    const reply = await callTool(BOOTSTRAP, 'recall', {
      query: 'x',
      context_id: 'mcp-err-missing',
    });
    expect(reply.status).toBe(200);
    expect(reply.body.result?.structuredContent?.error).toMatchObject({ status: 401 });
  });

  it('asks for context_id when the credential is not bound to a Context (400)', async () => {
    const reply = await callTool(BOOTSTRAP, 'recall', { query: 'x' });
    expect(reply.body.result?.structuredContent?.error).toMatchObject({ status: 400 });
  });

  it('reports a lens outside the grant as 403', async () => {
    const key = await contextWithKey('mcp-err-lens-1', {
      'memory:read': ['team:a'],
      'memory:write': ['team:a'],
      'memory:forget': [],
    });
    const reply = await callTool(key, 'recall', { query: 'x', lens: ['team:b'] });
    const error = reply.body.result?.structuredContent?.error as Record<string, unknown>;
    expect(error).toMatchObject({ status: 403, title: 'Forbidden' });
    expect(typeof error.detail).toBe('string');
    expect(reply.body.result?.content?.[0]?.text).toMatch(/^403 Forbidden: /);
  });

  it('reports an unknown fact as 404', async () => {
    const key = await contextWithKey('mcp-err-404-1');
    const reply = await callTool(key, 'inspect', { id: 'fact_doesnotexist' });
    expect(reply.body.result?.structuredContent?.error).toMatchObject({ status: 404 });
  });
});

describe('MCP protocol faults are JSON-RPC errors', () => {
  it('answers an unknown tool with a JSON-RPC error', async () => {
    const key = await contextWithKey('mcp-proto-1');
    const reply = await callTool(key, 'no_such_tool', {});
    expect(reply.status).toBe(200);
    expect(reply.body.error).toMatchObject({ code: -32602 });
    expect(reply.body.result).toBeUndefined();
  });

  it('answers arguments that fail the input schema with a JSON-RPC error', async () => {
    const key = await contextWithKey('mcp-proto-2');
    for (const args of [{ query: 'x', mode: 'fuzzy' }, { query: '' }, { query: 'x', k: 500 }]) {
      const reply = await callTool(key, 'recall', args);
      expect(reply.body.error, JSON.stringify(args)).toMatchObject({ code: -32602 });
    }
    const both = await callTool(key, 'remember', {});
    expect(both.body.error?.message).toContain('content or facts');
  });
});
