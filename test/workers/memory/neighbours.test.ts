import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { callTool } from '../mcp/mcp-client.ts';
import { call, expectProblem, issueKey, json, setup } from './helpers.ts';

// Issue 10 item 5: a question and its answer sit in adjacent turns, and a query often finds one
// of the two. `neighbours: n` returns the n turns before and after each hit in its session, under
// the same lens, kinds and supersession filter as the hits themselves.

interface Neighbour {
  id: string;
  content: string;
  position: number;
  valid_from: string;
}

interface Hit {
  id: string;
  content: string;
  session: string | null;
  position: number | null;
  neighbours?: Neighbour[];
}

const TURNS: { content: string; position: number; scopes: string[] }[] = [
  { content: 'Tobias: Morning! How was the weekend?', position: 0, scopes: ['team:eng'] },
  {
    content: 'Maya: Where did you end up going for the holiday?',
    position: 1,
    scopes: ['team:eng'],
  },
  { content: 'Tobias: Krakow, ten whole days, no laptop.', position: 2, scopes: ['team:eng'] },
  { content: 'Maya: The salt mine chapel is unreal.', position: 3, scopes: ['team:hr'] },
  { content: 'Tobias: Booked the sleeper train home too.', position: 4, scopes: ['team:eng'] },
];

async function writeSession(ctx: string, key: string): Promise<string[]> {
  const res = await call('POST', `/api/v1/${ctx}/facts/batch`, {
    key,
    body: {
      facts: [
        ...TURNS.map((t) => ({
          ...t,
          session: 's1',
          valid_from: `2023-05-0${t.position + 1}T00:00:00Z`,
        })),
        { content: 'Maya: Krakow has the best pierogi.', scopes: ['team:eng'] },
      ],
    },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json<{ facts: { id: string }[] }>(res)).facts.map((f) => f.id);
}

async function query(ctx: string, key: string, body: Record<string, unknown>): Promise<Hit[]> {
  const res = await call('POST', `/api/v1/${ctx}/query`, { key, body });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json<{ results: Hit[] }>(res)).results;
}

function hitFor(hits: Hit[], content: string): Hit {
  const hit = hits.find((h) => h.content === content);
  if (!hit) throw new Error(`no hit "${content}" in ${JSON.stringify(hits.map((h) => h.content))}`);
  return hit;
}

describe('neighbour turns with query hits', () => {
  it('returns the turns around each hit in its session, by position, in every mode', async () => {
    const { ctx, key } = await setup();
    const ids = await writeSession(ctx, key);
    for (const mode of ['bm25', 'vector', 'hybrid', 'hybrid_graph']) {
      const hits = await query(ctx, key, {
        query: 'Krakow ten days no laptop',
        mode,
        neighbours: 1,
      });
      const answer = hitFor(hits, 'Tobias: Krakow, ten whole days, no laptop.');
      expect(answer.neighbours, mode).toEqual([
        {
          id: ids[1],
          content: 'Maya: Where did you end up going for the holiday?',
          position: 1,
          valid_from: '2023-05-02T00:00:00.000Z',
        },
        {
          id: ids[3],
          content: 'Maya: The salt mine chapel is unreal.',
          position: 3,
          valid_from: '2023-05-04T00:00:00.000Z',
        },
      ]);
      // A hit written without a session has none, and says so with an empty list.
      expect(hitFor(hits, 'Maya: Krakow has the best pierogi.').neighbours, mode).toEqual([]);
    }
    const wide = await query(ctx, key, { query: 'Krakow ten days no laptop', neighbours: 5 });
    expect(
      hitFor(wide, 'Tobias: Krakow, ten whole days, no laptop.').neighbours?.map((n) => n.position),
    ).toEqual([0, 1, 3, 4]);
  });

  it('is absent unless asked for (neighbours: 0 is the default)', async () => {
    const { ctx, key } = await setup();
    await writeSession(ctx, key);
    const hits = await query(ctx, key, { query: 'Krakow ten days no laptop' });
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(hit).not.toHaveProperty('neighbours');
  });

  it('never shows a neighbour outside the caller’s lens or a superseded one', async () => {
    const { ctx, key } = await setup();
    const ids = await writeSession(ctx, key);
    const eng = await issueKey(ctx, { 'memory:read': ['team:eng'] });
    const hits = await query(ctx, eng, { query: 'Krakow ten days no laptop', neighbours: 2 });
    const answer = hitFor(hits, 'Tobias: Krakow, ten whole days, no laptop.');
    // Position 3 is team:hr: the eng reader gets 0, 1 and 4 only.
    expect(answer.neighbours?.map((n) => n.position)).toEqual([0, 1, 4]);
    expect(JSON.stringify(hits)).not.toContain('salt mine');

    await runInDurableObject(env.CONTEXT_STORE.getByName(ctx), (_obj, state) => {
      state.storage.sql.exec(
        'UPDATE items SET valid_until = ? WHERE id = ?',
        new Date().toISOString(),
        ids[1],
      );
    });
    const after = await query(ctx, key, { query: 'Krakow ten days no laptop', neighbours: 1 });
    expect(
      hitFor(after, 'Tobias: Krakow, ten whole days, no laptop.').neighbours?.map((n) => n.id),
    ).toEqual([ids[3]]);
    const history = await query(ctx, key, {
      query: 'Krakow ten days no laptop',
      neighbours: 1,
      include_superseded: true,
    });
    expect(
      hitFor(history, 'Tobias: Krakow, ten whole days, no laptop.').neighbours?.map((n) => n.id),
    ).toEqual([ids[1], ids[3]]);
  });

  it('refuses a window outside 0-5 with a problem body', async () => {
    const { ctx, key } = await setup();
    for (const neighbours of [-1, 6, 1.5, '1']) {
      const res = await call('POST', `/api/v1/${ctx}/query`, {
        key,
        body: { query: 'Krakow', neighbours },
      });
      const problem = await expectProblem(res, 400, 'validation-error');
      expect(problem.detail).toContain('neighbours');
    }
  });

  it('the MCP recall tool takes the same window', async () => {
    const { ctx, key } = await setup();
    await writeSession(ctx, key);
    const reply = await callTool(key, 'recall', {
      context_id: ctx,
      query: 'Krakow ten days no laptop',
      neighbours: 1,
    });
    const results = reply.body.result?.structuredContent?.results as Hit[] | undefined;
    const answer = hitFor(results ?? [], 'Tobias: Krakow, ten whole days, no laptop.');
    expect(answer.neighbours?.map((n) => n.position)).toEqual([1, 3]);
  });
});
