import { describe, expect, it } from 'vitest';
import { callTool } from '../mcp/mcp-client.ts';
import { call, expectProblem, json, setup } from './helpers.ts';

// Issue 10 item 4: temporal questions use the dates, "last year" included. A relative period in a
// question is resolved against `as_of`, the moment it is asked from (default: now), and matched to
// the dates facts were said (`valid_from`) or are about.

interface Hit {
  content: string;
}

const CONFERENCES = [
  { content: 'Went to the design conference in Oslo.', valid_from: '2024-04-10T09:00:00Z' },
  { content: 'Went to the design conference in Lisbon.', valid_from: '2025-04-10T09:00:00Z' },
  { content: 'Went to the design conference in Porto.', valid_from: '2026-04-10T09:00:00Z' },
];

async function write(ctx: string, key: string, facts: Record<string, unknown>[]): Promise<void> {
  const res = await call('POST', `/api/v1/${ctx}/facts/batch`, { key, body: { facts } });
  expect(res.status, await res.clone().text()).toBe(201);
}

async function first(ctx: string, key: string, body: Record<string, unknown>): Promise<string> {
  const res = await call('POST', `/api/v1/${ctx}/query`, { key, body });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json<{ results: Hit[] }>(res)).results[0]?.content ?? '';
}

describe('relative periods in a query', () => {
  it('"last year" means the year before as_of, in every text mode', async () => {
    const { ctx, key } = await setup();
    await write(ctx, key, CONFERENCES);
    const query = 'Where was the design conference I went to last year?';
    for (const mode of ['bm25', 'hybrid', 'hybrid_graph']) {
      const at = (as_of: string) => first(ctx, key, { query, mode, as_of });
      expect(await at('2026-11-26T12:00:00Z'), mode).toContain('Lisbon');
      expect(await at('2025-06-01T00:00:00Z'), mode).toContain('Oslo');
      expect(await at('2027-01-05T00:00:00+01:00'), mode).toContain('Porto');
    }
  });

  it('"yesterday", "last week" and "last month" resolve to days and months', async () => {
    const { ctx, key } = await setup();
    await write(ctx, key, [
      { content: 'Fixed the flaky login test.', valid_from: '2026-03-09T16:00:00Z' },
      { content: 'Fixed the flaky signup test.', valid_from: '2026-03-02T16:00:00Z' },
      { content: 'Fixed the flaky billing test.', valid_from: '2026-02-11T16:00:00Z' },
    ]);
    const asOf = '2026-03-10T09:00:00Z';
    const ask = (query: string) => first(ctx, key, { query, mode: 'bm25', as_of: asOf });
    expect(await ask('Which flaky test did I fix yesterday?')).toContain('login');
    expect(await ask('Which flaky test did I fix last week?')).toContain('signup');
    expect(await ask('Which flaky test did I fix last month?')).toContain('billing');
  });

  it('resolves against now when as_of is absent', async () => {
    const { ctx, key } = await setup();
    const year = new Date().getUTCFullYear();
    await write(ctx, key, [
      {
        content: 'Went to the design conference in Oslo.',
        valid_from: `${year - 2}-04-10T09:00:00Z`,
      },
      {
        content: 'Went to the design conference in Lisbon.',
        valid_from: `${year - 1}-04-10T09:00:00Z`,
      },
    ]);
    const body = { query: 'Where was the design conference I went to last year?', mode: 'bm25' };
    expect(await first(ctx, key, body)).toContain('Lisbon');
  });

  it('leaves a stated date as it is', async () => {
    const { ctx, key } = await setup();
    await write(ctx, key, CONFERENCES);
    const body = {
      query: 'Where was the design conference in April 2024?',
      mode: 'bm25',
      as_of: '2026-11-26T12:00:00Z',
    };
    expect(await first(ctx, key, body)).toContain('Oslo');
  });

  // A question that is all period: nothing but the dates can answer it. Before, the fused modes
  // ranked by the month names' word vectors, so "last November" found the turn about January.
  it('a question that names only a period finds that period first, in every text mode', async () => {
    const { ctx, key } = await setup();
    await write(ctx, key, [
      {
        content: 'I started a pottery class at the community centre',
        valid_from: '2024-05-14T10:00:00Z',
      },
      { content: 'My sister got married in Porto', valid_from: '2024-06-22T10:00:00Z' },
      { content: 'I adopted a beagle puppy last Tuesday', valid_from: '2024-03-08T10:00:00Z' },
      {
        content: 'The week before the wedding I bought a new suit',
        valid_from: '2024-06-15T10:00:00Z',
      },
      { content: 'I quit my job at the bank yesterday', valid_from: '2024-11-02T10:00:00Z' },
      { content: 'I moved to Berlin in January', valid_from: '2025-02-01T10:00:00Z' },
      { content: 'Had pasta for dinner', valid_from: '2024-05-15T10:00:00Z' },
      { content: 'Went running in the park', valid_from: '2023-05-10T10:00:00Z' },
    ]);
    const as_of = '2025-03-01T00:00:00Z';
    for (const mode of ['bm25', 'hybrid', 'hybrid_graph']) {
      const top = async (query: string, n: number): Promise<string[]> => {
        const res = await call('POST', `/api/v1/${ctx}/query`, {
          key,
          body: { query, mode, as_of, k: n },
        });
        expect(res.status, await res.clone().text()).toBe(200);
        return (await json<{ results: Hit[] }>(res)).results.map((r) => r.content).sort();
      };
      // "last November" is November 2024 (chrono reads only "November"; the "last" is ours).
      expect(await top('What did I do last November?', 1), mode).toEqual([
        'I quit my job at the bank yesterday',
      ]);
      expect(await top('What did I do in May 2024?', 2), mode).toEqual([
        'Had pasta for dinner',
        'I started a pottery class at the community centre',
      ]);
      // The year of "last year" and the month of "in June", together.
      expect(await top('What happened last year in June?', 2), mode).toEqual([
        'My sister got married in Porto',
        'The week before the wedding I bought a new suit',
      ]);
    }
  });

  it('"now" is not a date: a question about the present ranks the same whenever it is asked', async () => {
    const { ctx, key } = await setup();
    await write(ctx, key, [
      { content: 'Sam moved into a flat in Leeds', valid_from: '2025-01-10T10:00:00Z' },
      { content: 'Sam bought a new kettle', valid_from: '2025-06-01T10:00:00Z' },
      { content: 'Sam is thinking about a bike', valid_from: '2025-03-05T10:00:00Z' },
    ]);
    for (const mode of ['bm25', 'hybrid', 'hybrid_graph']) {
      const ranked = async (as_of: string): Promise<string[]> => {
        const res = await call('POST', `/api/v1/${ctx}/query`, {
          key,
          body: { query: 'Where does Sam live now?', mode, as_of },
        });
        expect(res.status, await res.clone().text()).toBe(200);
        return (await json<{ results: Hit[] }>(res)).results.map((r) => r.content);
      };
      // Asked on the day of the kettle, "now" once gave that day's turns its date tokens.
      const onThatDay = await ranked('2025-06-01T18:00:00Z');
      expect(onThatDay[0], mode).toBe('Sam moved into a flat in Leeds');
      expect(onThatDay, mode).toEqual(await ranked('2027-01-01T00:00:00Z'));
    }
  });

  it('refuses an as_of that is not an ISO 8601 date-time, naming the field', async () => {
    const { ctx, key } = await setup();
    for (const as_of of ['yesterday', '2026-13-01T00:00:00Z', 20261126, '2026-11-26']) {
      const res = await call('POST', `/api/v1/${ctx}/query`, {
        key,
        body: { query: 'what happened last week?', as_of },
      });
      const problem = await expectProblem(res, 400, 'validation-error');
      expect(problem.detail).toContain('as_of');
    }
  });

  it('the MCP recall tool takes as_of too', async () => {
    const { ctx, key } = await setup();
    await write(ctx, key, CONFERENCES);
    const reply = await callTool(key, 'recall', {
      context_id: ctx,
      query: 'Where was the design conference I went to last year?',
      mode: 'bm25',
      as_of: '2026-11-26T12:00:00Z',
    });
    const results = reply.body.result?.structuredContent?.results as Hit[] | undefined;
    expect(results?.[0]?.content).toContain('Lisbon');
  });
});
