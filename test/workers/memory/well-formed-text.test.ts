import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api, createContext } from '../jobs/helpers.ts';

/**
 * Only valid text is stored: a lone surrogate (or NUL) anywhere in a JSON body is a 400 naming
 * the field's path, per kind of field, and nothing of the request is written. The bodies are
 * built as raw JSON text with `\ud800` escapes, exactly as a hostile client would send them.
 */

function post(path: string, json: string, method = 'POST'): Promise<Response> {
  return api(path, { method, headers: { 'content-type': 'application/json' }, body: json });
}

async function refused(res: Response, path: RegExp): Promise<void> {
  const body = await res.text();
  expect(res.status, body).toBe(400);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  const detail = (JSON.parse(body) as { detail: string }).detail;
  expect(detail).toMatch(path);
  expect(detail).toMatch(/lone surrogate|U\+0000/);
}

async function factCount(ctx: string): Promise<number> {
  const res = await api(`/api/v1/${ctx}/facts?limit=100`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { facts: unknown[] }).facts.length;
}

describe('lone surrogates are refused, per field kind', () => {
  it('fact content, high and low surrogate alike, and NUL', async () => {
    await createContext('wf-content');
    await refused(
      await post('/api/v1/wf-content/facts', '{"content":"x\\ud800y"}'),
      /^content: .*U\+D800/,
    );
    await refused(
      await post('/api/v1/wf-content/facts', '{"content":"\\udc00 leading low half"}'),
      /^content: .*U\+DC00/,
    );
    await refused(await post('/api/v1/wf-content/facts', '{"content":"a\\u0000b"}'), /^content:/);
    expect(await factCount('wf-content')).toBe(0);
  });

  it('a valid surrogate pair (an emoji) is text and is stored', async () => {
    await createContext('wf-emoji');
    const res = await post(
      '/api/v1/wf-emoji/facts',
      '{"content":"Ships on Fridays \\ud83d\\ude80"}',
    );
    expect(res.status).toBe(201);
    expect(await factCount('wf-emoji')).toBe(1);
  });

  it('metadata values and metadata keys', async () => {
    await createContext('wf-meta');
    await refused(
      await post('/api/v1/wf-meta/facts', '{"content":"ok","metadata":{"team":"eng\\ud800"}}'),
      /^metadata\.team:/,
    );
    await refused(
      await post('/api/v1/wf-meta/facts', '{"content":"ok","metadata":{"te\\udbffam":"eng"}}'),
      /^metadata\.<key>: a key/,
    );
    expect(await factCount('wf-meta')).toBe(0);
  });

  it('scopes, and a fact deep in a batch', async () => {
    await createContext('wf-scopes');
    await refused(
      await post('/api/v1/wf-scopes/facts', '{"content":"ok","scopes":["team:\\ud800"]}'),
      /^scopes\[0\]:/,
    );
    await refused(
      await post(
        '/api/v1/wf-scopes/facts/batch',
        '{"facts":[{"content":"fine"},{"content":"bad \\ud800"}]}',
      ),
      /^facts\[1\]\.content:/,
    );
    // All or nothing: the valid first fact of the batch was not written either.
    expect(await factCount('wf-scopes')).toBe(0);
  });

  it('session turns and session metadata', async () => {
    await createContext('wf-session');
    expect((await post('/api/v1/wf-session/sessions', '{"id":"s1"}')).status).toBe(201);
    await refused(
      await post(
        '/api/v1/wf-session/sessions/s1/turns',
        '{"role":"user","content":"hello \\ud800"}',
      ),
      /^content:/,
    );
    const turns = await api('/api/v1/wf-session/sessions/s1/turns');
    expect(((await turns.json()) as { turns: unknown[] }).turns).toHaveLength(0);
    await refused(
      await post('/api/v1/wf-session/sessions', '{"id":"s2","metadata":{"note":"\\ud800"}}'),
      /^metadata\.note:/,
    );
    expect((await api('/api/v1/wf-session/sessions/s2')).status).toBe(404);
  });

  it('Context fields that go to D1 (namespace)', async () => {
    await refused(
      await post('/api/v1/contexts', '{"id":"wf-d1","namespace":"team\\ud800"}'),
      /^namespace:/,
    );
    const row = await env.DB.prepare('SELECT id FROM contexts WHERE id = ?').bind('wf-d1').first();
    expect(row).toBeNull();
  });

  it('query text', async () => {
    await createContext('wf-query');
    await refused(await post('/api/v1/wf-query/query', '{"query":"where \\ud800"}'), /^query:/);
  });

  it('an import row, naming its line', async () => {
    await createContext('wf-import-src');
    expect((await post('/api/v1/wf-import-src/facts', '{"content":"Backed up."}')).status).toBe(
      201,
    );
    const text = await (await api('/api/v1/contexts/wf-import-src/export')).text();
    const bad = text.replace('Backed up.', 'Backed up.\\ud800');
    await createContext('wf-import');
    const res = await api('/api/v1/contexts/wf-import/import', {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: bad,
    });
    const body = (await res.json()) as { detail: string };
    expect(res.status).toBe(400);
    expect(body.detail).toMatch(/line \d+ .*lone surrogate/);
    expect(await factCount('wf-import')).toBe(0);
  });
});
