import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION } from '../../../functions/memory/store/schema/index.ts';
import {
  agentKey,
  api,
  CapturingQueue,
  createContext,
  createContextAtV1,
  deliver,
  fakeEnv,
} from './helpers.ts';
import { runSchedulerTick } from '../../../functions/memory/jobs/scheduled.ts';

async function writeFact(ctx: string, content: string): Promise<void> {
  const res = await api(`/api/v1/${ctx}/facts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ content, scopes: ['team:eng'] }),
  });
  expect(res.status).toBe(201);
}

async function search(ctx: string, text: string): Promise<string[]> {
  const res = await api(`/api/v1/${ctx}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: text, mode: 'hybrid' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: { content: string }[] }).results.map((r) => r.content);
}

async function importInto(ctx: string, ndjson: string, key?: string): Promise<Response> {
  return api(`/api/v1/contexts/${ctx}/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body: ndjson,
    ...(key ? { key } : {}),
  });
}

describe('Context export and import', () => {
  it('exports the whole database as NDJSON and restores it into a new Context', async () => {
    await createContext('bk-source');
    await writeFact('bk-source', 'The staging database lives in the Frankfurt region.');
    await writeFact('bk-source', 'Deploys happen on Tuesdays after the standup.');

    const res = await api('/api/v1/contexts/bk-source/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    const ndjson = await res.text();
    const lines = ndjson
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({
      type: 'header',
      context_id: 'bk-source',
      schema_version: LATEST_SCHEMA_VERSION,
    });
    expect(lines.at(-1)).toMatchObject({ type: 'end', rows: lines.length - 2 });
    const tables = new Set(lines.slice(1, -1).map((l) => l.table));
    expect([...tables]).toEqual(
      expect.arrayContaining(['items', 'items_fts', 'item_vectors', '_meta']),
    );

    await createContext('bk-restored');
    const imported = await importInto('bk-restored', ndjson);
    expect(imported.status).toBe(200);
    expect(await imported.json()).toMatchObject({
      context_id: 'bk-restored',
      schema_version: LATEST_SCHEMA_VERSION,
    });
    // Every index came back: full-text and vector search find the restored facts.
    expect(await search('bk-restored', 'Frankfurt staging database')).toEqual(
      expect.arrayContaining(['The staging database lives in the Frankfurt region.']),
    );
    const again = await (await api('/api/v1/contexts/bk-restored/export')).text();
    const rows = (text: string) => text.trim().split('\n').slice(1, -1).sort();
    expect(rows(again)).toEqual(rows(ndjson));
  });

  it('refuses to import into a Context that holds data (409) and a malformed export (400)', async () => {
    await createContext('bk-full');
    await writeFact('bk-full', 'This Context already holds a fact.');
    const ndjson = await (await api('/api/v1/contexts/bk-full/export')).text();
    expect((await importInto('bk-full', ndjson)).status).toBe(409);
    await createContext('bk-bad');
    const truncated = ndjson.trim().split('\n').slice(0, -1).join('\n');
    const bad = await importInto('bk-bad', truncated);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/no end line/);
    expect((await importInto('bk-bad', 'not json')).status).toBe(400);
  });

  it('is management only', async () => {
    await createContext('bk-auth');
    const key = await agentKey('bk-auth', 'bk-agent');
    expect((await api('/api/v1/contexts/bk-auth/export', { key })).status).toBe(403);
    expect((await importInto('bk-auth', '{}', key)).status).toBe(403);
  });

  it('restores a backup taken at V1 at V1, and the scheduler then migrates it', async () => {
    await createContextAtV1('bk-old');
    const ndjson = await (await api('/api/v1/contexts/bk-old/export')).text();
    expect(JSON.parse(ndjson.split('\n')[0] ?? '{}')).toMatchObject({ schema_version: 1 });
    await createContext('bk-old-restored');
    const res = await importInto('bk-old-restored', ndjson);
    expect(await res.json()).toMatchObject({ schema_version: 1 });
    const row = await env.DB.prepare('SELECT schema_version FROM contexts WHERE id = ?')
      .bind('bk-old-restored')
      .first<{ schema_version: number }>();
    expect(row?.schema_version).toBe(1);

    const queue = new CapturingQueue();
    await runSchedulerTick(fakeEnv(queue), Date.now(), []);
    const mine = queue.sent.filter(
      (m) => (m as { context_id: string }).context_id === 'bk-old-restored',
    );
    expect(mine).toHaveLength(1);
    await deliver('memory-jobs', mine);
    expect(await env.CONTEXT_STORE.getByName('bk-old-restored').schemaVersion()).toBe(
      LATEST_SCHEMA_VERSION,
    );
    const documentsTable = await runInDurableObject(
      env.CONTEXT_STORE.getByName('bk-old-restored'),
      (_o, state) =>
        state.storage.sql.exec("SELECT name FROM sqlite_master WHERE name = 'documents'").toArray(),
    );
    expect(documentsTable).toHaveLength(1);
  });
});
