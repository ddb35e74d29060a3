import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { exportStream, importStream } from '../../../functions/memory/operations/context-backup.ts';
import { contextStore } from '../../../functions/memory/store/context-store.ts';
import { api, createContext } from './helpers.ts';

/** Streamed export and import: pages, batches, trailer checks, and what a failure leaves. */

async function writeFacts(ctx: string, n: number): Promise<void> {
  const facts = Array.from({ length: n }, (_, i) => ({
    content: `Fact ${i}: Alice Jones deployed service ${i} to the Frankfurt region on Tuesday.`,
    scopes: ['team:eng'],
  }));
  const res = await api(`/api/v1/${ctx}/facts/batch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ facts }),
  });
  expect(res.status).toBe(201);
}

async function exportText(ctx: string): Promise<string> {
  const res = await api(`/api/v1/contexts/${ctx}/export`);
  expect(res.status).toBe(200);
  return res.text();
}

const lines = (text: string) => text.trim().split('\n');
const rowLines = (text: string) => lines(text).slice(1, -1);
const trailer = (text: string) =>
  JSON.parse(lines(text).at(-1) ?? '{}') as {
    type: string;
    rows: number;
    counts: Record<string, number>;
    sha256: string;
  };

function importInto(ctx: string, body: BodyInit): Promise<Response> {
  return api(`/api/v1/contexts/${ctx}/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body,
  });
}

/** Rows in the Context's own tables (`_meta` aside): 0 for a fresh Context. */
async function storedRows(ctx: string): Promise<number> {
  return runInDurableObject(env.CONTEXT_STORE.getByName(ctx), (_o, state) => {
    const sql = state.storage.sql;
    const tables = ['items', 'item_vectors', 'item_entities', 'entities', 'sessions', 'turns'];
    return tables.reduce(
      (sum, t) => sum + sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t}`).one().n,
      0,
    );
  });
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A body that delivers `text` and then fails, as a client that goes away mid-upload. */
function failingBody(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let sent = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) {
        controller.error(new Error('connection reset'));
        return;
      }
      sent = true;
      controller.enqueue(bytes);
    },
  });
}

describe('streamed export', () => {
  it('writes a header with counts, every row, and a trailer with counts and the rows’ sha256', async () => {
    await createContext('bs-header');
    await writeFacts('bs-header', 5);
    const text = await exportText('bs-header');
    const header = JSON.parse(lines(text)[0] ?? '{}') as Record<string, unknown>;
    expect(header).toMatchObject({
      type: 'header',
      format: 'engram-context-export',
      format_version: 2,
      context_id: 'bs-header',
    });
    const end = trailer(text);
    const rows = rowLines(text);
    expect(end.type).toBe('end');
    expect(end.rows).toBe(rows.length);
    expect(end.counts.items).toBe(5);
    expect(header.counts).toEqual(end.counts);
    expect(end.sha256).toBe(await sha256Hex(rows.map((l) => `${l}\n`).join('')));
  });

  it('gives the same rows whatever the page size (WITHOUT ROWID tables included)', async () => {
    await createContext('bs-pages');
    await writeFacts('bs-pages', 12);
    const whole = await exportText('bs-pages');
    const store = contextStore(env, 'bs-pages');
    const paged = await new Response(exportStream(store, 'bs-pages', 200)).text();
    expect(rowLines(paged)).toEqual(rowLines(whole));
    expect(trailer(paged).sha256).toBe(trailer(whole).sha256);
    const tables = new Set(rowLines(whole).map((l) => (JSON.parse(l) as { table: string }).table));
    expect([...tables]).toEqual(expect.arrayContaining(['item_entities', 'items_fts']));
    // Many pages really were read: 200 bytes hold about one row each.
    let pages = 0;
    let cursor = null;
    do {
      const page = await store.exportPage(cursor, 200);
      pages++;
      cursor = page.next;
    } while (cursor !== null);
    expect(pages).toBeGreaterThan(20);
  });
});

describe('streamed import', () => {
  it('restores in many small batches and the round trip is identical', async () => {
    await createContext('bs-src');
    await writeFacts('bs-src', 10);
    const text = await exportText('bs-src');
    await createContext('bs-dst');
    const result = await importStream(
      contextStore(env, 'bs-dst'),
      'bs-dst',
      new Response(text).body ?? failingBody(''),
      { rows: 3, bytes: 1024 * 1024 },
    );
    expect(result.rows).toBe(rowLines(text).length);
    expect(rowLines(await exportText('bs-dst')).sort()).toEqual(rowLines(text).sort());
  });

  it('refuses a checksum mismatch and keeps nothing', async () => {
    await createContext('bs-sum-src');
    await writeFacts('bs-sum-src', 3);
    const text = await exportText('bs-sum-src');
    const tampered = text.replace('Frankfurt', 'Frankfort');
    await createContext('bs-sum');
    const res = await importInto('bs-sum', tampered);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(((await res.json()) as { detail: string }).detail).toMatch(/checksum mismatch/);
    expect(await storedRows('bs-sum')).toBe(0);
    // Left as it was: empty, so the genuine export still goes in.
    expect((await importInto('bs-sum', text)).status).toBe(200);
  });

  it('refuses trailer counts that differ from the rows', async () => {
    await createContext('bs-count-src');
    await writeFacts('bs-count-src', 2);
    const text = await exportText('bs-count-src');
    const end = trailer(text);
    const wrong = { ...end, counts: { ...end.counts, items: (end.counts.items ?? 0) + 1 } };
    const body = [...lines(text).slice(0, -1), JSON.stringify(wrong)].join('\n');
    await createContext('bs-count');
    const res = await importInto('bs-count', body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/counts differ.*items/);
    expect(await storedRows('bs-count')).toBe(0);
  });

  it('leaves the target as before when the body is cut in the middle', async () => {
    await createContext('bs-cut-src');
    await writeFacts('bs-cut-src', 20);
    const text = await exportText('bs-cut-src');
    await createContext('bs-cut');
    for (const cut of [Math.floor(text.length / 2), text.lastIndexOf('\n', text.length - 2)]) {
      const res = await importInto('bs-cut', text.slice(0, cut));
      expect(res.status).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(
        /no end line|not JSON|truncated/,
      );
      expect(await storedRows('bs-cut')).toBe(0);
    }
    // Rows already written in earlier batches are undone too when the connection drops.
    const store = contextStore(env, 'bs-cut');
    const half = text.slice(0, text.lastIndexOf('\n', Math.floor(text.length / 2)) + 1);
    await expect(
      importStream(store, 'bs-cut', failingBody(half), { rows: 2, bytes: 1024 * 1024 }),
    ).rejects.toThrow(/connection reset/);
    expect(await storedRows('bs-cut')).toBe(0);
    expect((await importInto('bs-cut', text)).status).toBe(200);
    expect(await storedRows('bs-cut')).toBeGreaterThan(0);
  });

  it('wipes an import abandoned mid-way (a Worker that died) when the next one begins', async () => {
    await createContext('bs-aband-src');
    await writeFacts('bs-aband-src', 4);
    const text = await exportText('bs-aband-src');
    await createContext('bs-aband');
    const store = contextStore(env, 'bs-aband');
    const header = JSON.parse(lines(text)[0] ?? '{}') as { schema_version: number };
    await store.importBegin({
      contextId: 'bs-aband',
      schemaVersion: header.schema_version,
      token: 'dead',
    });
    const rows = rowLines(text).map((l) => JSON.parse(l) as never);
    expect((await store.importBatch('dead', rows.slice(0, 5), 2)).ok).toBe(true);
    expect(await storedRows('bs-aband')).toBeGreaterThan(0);
    const res = await importInto('bs-aband', text);
    expect(res.status).toBe(200);
    expect(rowLines(await exportText('bs-aband')).sort()).toEqual(rowLines(text).sort());
    // The dead import's token no longer writes anything.
    const late = await store.importBatch('dead', rows.slice(0, 1), 2);
    expect(late.ok).toBe(false);
  });

  it('refuses a body that is not UTF-8 and lines that are not rows, naming the line', async () => {
    await createContext('bs-bad');
    const bytes = new Uint8Array([0x7b, 0xff, 0xfe, 0x7d, 0x0a]);
    const notUtf8 = await importInto('bs-bad', bytes);
    expect(notUtf8.status).toBe(400);
    expect(((await notUtf8.json()) as { detail: string }).detail).toMatch(/could not be read/);
    await createContext('bs-bad-src');
    const text = await exportText('bs-bad-src');
    const body = [lines(text)[0], '{"type":"nope"}', ...lines(text).slice(1)].join('\n');
    const res = await importInto('bs-bad', body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/line 2 is not a row line/);
    expect(await storedRows('bs-bad')).toBe(0);
  });
});
