import { describe, expect, it } from 'vitest';
import { MCP_TOOLS } from '../../../src/schemas/mcp-tools.ts';
import { exports } from 'cloudflare:workers';
import { BOOTSTRAP, callTool, contextWithKey, ORIGIN, rpc } from './mcp-client.ts';

interface Listed {
  name: string;
  title?: string;
  description?: string;
}

async function liveList(contextId: string): Promise<Listed[]> {
  const key = await contextWithKey(contextId);
  const reply = await rpc(key, 'tools/list');
  return (reply.body.result?.tools ?? []) as Listed[];
}

async function card<T>(path: string): Promise<T> {
  const res = await exports.default.fetch(`${ORIGIN}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

describe('MCP tool list', () => {
  it('matches the built server card and agent card (names, titles, descriptions)', async () => {
    const live = await liveList('mcp-list-cards');
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    const liveSummary = live
      .map((t) => ({ name: t.name, title: t.title, description: t.description }))
      .sort(byName);
    const server = await card<{ tools: Listed[] }>('/.well-known/mcp/server-card.json');
    expect(
      server.tools
        .map((t) => ({ name: t.name, title: t.title, description: t.description }))
        .sort(byName),
    ).toEqual(liveSummary);
    const agent = await card<{ skills: Array<{ id: string; name: string; description: string }> }>(
      '/.well-known/agent-card.json',
    );
    // The agent card lists the memory skills: each must be a live tool, word for word.
    expect(agent.skills.length).toBeGreaterThan(0);
    for (const skill of agent.skills) {
      expect(liveSummary).toContainEqual({
        name: skill.id,
        title: skill.name,
        description: skill.description,
      });
    }
  });

  it('lists exactly the tools of src/schemas/mcp-tools.ts (the cards cannot drift)', async () => {
    const key = await contextWithKey('mcp-list-1');
    const reply = await rpc(key, 'tools/list');
    expect(reply.status).toBe(200);
    const names = reply.body.result?.tools?.map((t) => t.name).sort();
    expect(names).toEqual(MCP_TOOLS.map((t) => t.name).sort());
    for (const tool of reply.body.result?.tools ?? []) {
      expect(tool.inputSchema).toMatchObject({ type: 'object' });
      expect(tool.outputSchema).toMatchObject({ type: 'object' });
    }
  });
});

describe('MCP model-backed tools (local deterministic provider)', () => {
  it('chats from memory, reflects and previews a consolidation', async () => {
    const key = await contextWithKey('mcp-model-1');
    await callTool(key, 'remember', {
      content: 'The staging database is Postgres 16.',
      scopes: ['team:ops'],
    });
    await callTool(key, 'remember', {
      content: 'The staging database is Postgres 16.',
      scopes: ['team:ops'],
    });
    const chat = await callTool(key, 'chat', { message: 'Which database does staging use?' });
    expect(chat.body.result?.isError).toBeFalsy();
    expect(chat.body.result?.structuredContent?.answer).toContain('Postgres');
    const reflect = await callTool(key, 'reflect', {});
    expect(reflect.body.result?.structuredContent).toMatchObject({ persisted: false });
    const consolidate = await callTool(key, 'consolidate', { dry_run: true });
    expect(consolidate.body.result?.structuredContent).toMatchObject({ dry_run: true, applied: 0 });
  });

  it('remembers with inference when asked (infer: full)', async () => {
    const key = await contextWithKey('mcp-model-infer');
    const reply = await callTool(key, 'remember', {
      content: 'Maria moved to Lisbon. She now leads the platform team.',
      scopes: ['team:a'],
      infer: 'full',
    });
    expect(reply.body.result?.isError).toBeFalsy();
    const facts = reply.body.result?.structuredContent?.facts as Array<{ content: string }>;
    expect(facts.length).toBeGreaterThan(0);
  });

  it('recall leaves superseded facts out unless include_superseded is set', async () => {
    const key = await contextWithKey('mcp-model-superseded');
    const speaker = { scopes: ['team:a'], metadata: { speaker: 'Nadia' }, infer: 'full' };
    await callTool(key, 'remember', { content: 'I live in Oslo.', ...speaker });
    await callTool(key, 'remember', { content: 'I moved to Bergen.', ...speaker });
    const contents = async (args: Record<string, unknown>) => {
      const reply = await callTool(key, 'recall', { query: 'Where does Nadia live?', ...args });
      expect(reply.body.result?.isError).toBeFalsy();
      const results = reply.body.result?.structuredContent?.results as Array<{ content: string }>;
      return results.map((r) => r.content);
    };
    const current = await contents({ mode: 'bm25' });
    expect(current).toContain('Nadia moved to Bergen.');
    expect(current).not.toContain('Nadia lives in Oslo.');
    expect(await contents({ mode: 'bm25', include_superseded: true })).toContain(
      'Nadia lives in Oslo.',
    );
  });

  it('refuses to persist a reflection with an agent key (403)', async () => {
    const key = await contextWithKey('mcp-model-2');
    const reply = await callTool(key, 'reflect', { persist: true });
    expect(reply.body.result?.structuredContent?.error).toMatchObject({ status: 403 });
  });

  it('reports a blocked Context as 429 on a model-backed tool', async () => {
    const key = await contextWithKey('mcp-model-3');
    const res = await exports.default.fetch(`${ORIGIN}/api/v1/contexts/mcp-model-3`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${BOOTSTRAP}`, 'content-type': 'application/json' },
      body: JSON.stringify({ enforcement_blocked: true }),
    });
    expect(res.status).toBe(200);
    const reply = await callTool(key, 'consolidate', {});
    expect(reply.body.result?.structuredContent?.error).toMatchObject({ status: 429 });
  });
});

describe('MCP documentation search', () => {
  it('searches the site documentation', async () => {
    const key = await contextWithKey('mcp-docs-1');
    const reply = await callTool(key, 'search_documentation', { query: 'hybrid search' });
    expect(reply.body.result?.isError).toBeFalsy();
    const results = reply.body.result?.structuredContent?.results as unknown[];
    expect(results.length).toBeGreaterThan(0);
  });
});

describe('MCP remember and recall', () => {
  it('remembers a fact and recalls it in every mode, without context_id on a bound key', async () => {
    const key = await contextWithKey('mcp-remember-1');
    const stored = await callTool(key, 'remember', {
      content: 'Alice prefers answers in German.',
      scopes: ['team:support/user:alice'],
    });
    expect(stored.status).toBe(200);
    expect(stored.body.result?.isError).toBeFalsy();
    const facts = stored.body.result?.structuredContent?.facts as Array<{ id: string }>;
    expect(facts).toHaveLength(1);
    for (const mode of ['vector', 'bm25', 'hybrid', 'hybrid_graph']) {
      const found = await callTool(key, 'recall', { query: 'Alice German answers', mode, k: 5 });
      expect(found.body.result?.isError, mode).toBeFalsy();
      const results = found.body.result?.structuredContent?.results as Array<{ id: string }>;
      expect(
        results.map((r) => r.id),
        mode,
      ).toContain(facts[0]?.id);
    }
  });

  it('writes a batch all-or-nothing and inspects and forgets a fact', async () => {
    const key = await contextWithKey('mcp-batch-1');
    const stored = await callTool(key, 'remember', {
      facts: [
        { content: 'Bob likes tea.', scopes: ['team:a'] },
        { content: 'Carol likes coffee.', scopes: ['team:a'] },
      ],
    });
    const facts = stored.body.result?.structuredContent?.facts as Array<{ id: string }>;
    expect(facts).toHaveLength(2);
    const id = facts[0]?.id ?? '';
    const seen = await callTool(key, 'inspect', { id });
    expect(seen.body.result?.structuredContent).toMatchObject({
      kind: 'item',
      item: { id, content: 'Bob likes tea.' },
    });
    const gone = await callTool(key, 'forget', { id });
    expect(gone.body.result?.structuredContent).toEqual({ id, deleted: true });
    const again = await callTool(key, 'inspect', { id });
    expect(again.body.result?.isError).toBe(true);
    expect(again.body.result?.structuredContent?.error).toMatchObject({ status: 404 });
  });

  it('builds a context block', async () => {
    const key = await contextWithKey('mcp-context-1');
    await callTool(key, 'remember', {
      content: 'The deploy window is Tuesday.',
      scopes: ['team:ops'],
    });
    const block = await callTool(key, 'context', { query: 'when is the deploy window?' });
    expect(block.body.result?.structuredContent?.context).toContain('Tuesday');
  });

  it('uploads a base64 document, and refuses text and base64 together (protocol fault)', async () => {
    const key = await contextWithKey('mcp-upload-2');
    const up = await callTool(key, 'upload', {
      filename: 'data.csv',
      base64: btoa('name,city\nAda,London\n'),
      content_type: 'text/csv',
      scopes: ['team:a'],
    });
    expect(up.body.result?.structuredContent?.id).toMatch(/^document:/);
    const both = await callTool(key, 'upload', { filename: 'x.txt', text: 'a', base64: 'YQ==' });
    expect(both.body.error?.code).toBe(-32602);
  });

  it('uploads a text document and inspects its state', async () => {
    const key = await contextWithKey('mcp-upload-1');
    const up = await callTool(key, 'upload', {
      filename: 'notes.md',
      text: '# Notes\n\nThe office is in Lyon.',
      scopes: ['team:a'],
    });
    expect(up.body.result?.isError).toBeFalsy();
    const id = up.body.result?.structuredContent?.id as string;
    expect(id).toMatch(/^document:/);
    const state = await callTool(key, 'inspect', { id });
    expect(state.body.result?.structuredContent).toMatchObject({
      kind: 'document',
      document: { id },
    });
  });
});
