import { describe, expect, it } from 'vitest';
import { call, createContext, json, listFacts, type Fact } from './model-api.ts';

interface QueryBody {
  results: { id: string; content: string; valid_until?: string }[];
}

const MODES = ['bm25', 'vector', 'hybrid', 'hybrid_graph'] as const;

function query(ctx: string, body: Record<string, unknown>): Promise<QueryBody> {
  return call(`/api/v1/${ctx}/query`, { body }).then((res) => json<QueryBody>(res, 200));
}

async function contextBlock(ctx: string, q?: string): Promise<string> {
  const body = await json<{ context: string; items: { kind: string }[] }>(
    await call(`/api/v1/${ctx}/context`, { body: q ? { query: q } : {} }),
    200,
  );
  expect(body.items.length).toBeGreaterThan(0);
  return body.context;
}

describe('facts closed by supersession are history, not current', () => {
  it('?infer=full: the old value carries valid_until and superseded_by, and leaves /query, lists and the context block', async () => {
    const ctx = 'models-superseded-infer';
    await createContext(ctx);
    const speaker = { metadata: { speaker: 'Nadia' } };
    const [first] = (
      await json<{ facts: Fact[] }>(
        await call(`/api/v1/${ctx}/facts?infer=full`, {
          body: { content: 'I live in Oslo.', ...speaker },
        }),
        201,
      )
    ).facts;
    const [second] = (
      await json<{ facts: Fact[] }>(
        await call(`/api/v1/${ctx}/facts?infer=full`, {
          body: { content: 'I moved to Bergen.', ...speaker },
        }),
        201,
      )
    ).facts;
    expect(first?.content).toBe('Nadia lives in Oslo.');
    expect(second?.content).toBe('Nadia moved to Bergen.');

    const old = await json<Fact>(await call(`/api/v1/${ctx}/facts/${first?.id ?? ''}`), 200);
    expect(old.valid_until).toEqual(expect.any(String));
    expect(old.superseded_by).toBe(second?.id);
    expect(old.valid_from).toEqual(expect.any(String));
    const current = await json<Fact>(await call(`/api/v1/${ctx}/facts/${second?.id ?? ''}`), 200);
    expect(current).toMatchObject({ valid_until: null, superseded_by: null });

    // Lists: current facts only, unless history is asked for (then marked as closed).
    expect((await listFacts(ctx)).map((f) => f.id)).toEqual([second?.id]);
    const history = await listFacts(ctx, 'fact', true);
    expect(history.map((f) => [f.id, f.superseded_by])).toEqual([
      [first?.id, second?.id],
      [second?.id, null],
    ]);

    // Every query mode leaves the closed fact out by default and returns it on request.
    for (const mode of MODES) {
      const now = await query(ctx, { query: 'Nadia lives in Oslo', mode, k: 10 });
      expect(now.results.map((r) => r.id)).not.toContain(first?.id);
      const all = await query(ctx, {
        query: 'Nadia lives in Oslo',
        mode,
        k: 10,
        include_superseded: true,
      });
      const closed = all.results.find((r) => r.id === first?.id);
      expect(closed?.valid_until, mode).toBe(old.valid_until);
    }

    // The context block, with and without a query, never offers the old value as current.
    expect(await contextBlock(ctx, 'Where does Nadia live?')).not.toContain('Oslo');
    expect(await contextBlock(ctx)).not.toContain('Oslo');
    expect(await contextBlock(ctx)).toContain('Bergen');
  });

  it('consolidation: a superseded fact points at the newer one and leaves /query', async () => {
    const ctx = 'models-superseded-consolidate';
    await createContext(ctx);
    const write = async (content: string) =>
      (
        await json<{ facts: Fact[] }>(
          await call(`/api/v1/${ctx}/facts`, { body: { content } }),
          201,
        )
      ).facts[0]?.id ?? '';
    const ghent = await write('Lucia lives in Ghent.');
    const seville = await write('Lucia moved to Seville.');
    // Load the store's in-memory vector cache first: closing a fact must update it at once.
    const before = await query(ctx, { query: 'Lucia Ghent', mode: 'vector' });
    expect(before.results.map((r) => r.id)).toContain(ghent);
    await json(await call(`/api/v1/${ctx}/consolidate`, { body: {} }), 200);
    for (const mode of MODES) {
      const now = await query(ctx, { query: 'Lucia Ghent', mode });
      expect(
        now.results.map((r) => r.id),
        mode,
      ).not.toContain(ghent);
    }

    const old = await json<Fact>(await call(`/api/v1/${ctx}/facts/${ghent}`), 200);
    expect(old.valid_until).toEqual(expect.any(String));
    expect(old.superseded_by).toBe(seville);
    const hits = await query(ctx, { query: 'Lucia Ghent', mode: 'hybrid' });
    expect(hits.results.map((r) => r.id)).toEqual([seville]);
  });

  it('include_superseded on the list must be true or false', async () => {
    const ctx = 'models-superseded-bad-param';
    await createContext(ctx);
    const res = await call(`/api/v1/${ctx}/facts?include_superseded=yes`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });
});
