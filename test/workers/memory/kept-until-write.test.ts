import { describe, expect, it } from 'vitest';
import { call, json, setup, writeFact } from './helpers.ts';

// A Context's object keeps, between writes, what searches read of candidate items (scopes, kind,
// whether closed, content: store/search-probe.ts), its row counts (store/counts.ts) and its bm25
// postings (store/postings-index.ts). Every write must show in the very next query: here each
// query is repeated first, so the kept values are warm when the write lands.
interface Hit {
  id: string;
  content: string;
  scopes: string[];
}

async function ask(ctx: string, key: string, mode: string, lens?: string[][]): Promise<Hit[]> {
  const body = { query: 'who reviews the billing roadmap', mode, ...(lens ? { lens } : {}) };
  const res = await call('POST', `/api/v1/${ctx}/query`, { key, body });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json<{ results: Hit[] }>(res)).results;
}

describe('what a Context keeps between writes', () => {
  for (const mode of ['bm25', 'hybrid']) {
    it(`${mode}: a forgotten fact is gone and a new one found on the next query`, async () => {
      const { ctx, key } = await setup();
      const ada = await writeFact(ctx, key, 'Ada reviews the billing roadmap', ['team:billing']);
      await writeFact(ctx, key, 'Grace reviews the search roadmap', ['team:search']);
      await writeFact(ctx, key, 'Linus drafts the billing budget', ['team:billing']);
      for (let i = 0; i < 3; i++)
        expect((await ask(ctx, key, mode)).map((h) => h.id)).toContain(ada.id);

      const del = await call('DELETE', `/api/v1/${ctx}/facts/${ada.id}`, { key });
      expect(del.status).toBe(204);
      expect((await ask(ctx, key, mode)).map((h) => h.id)).not.toContain(ada.id);

      const ken = await writeFact(ctx, key, 'Ken reviews the billing roadmap now', [
        'team:billing',
      ]);
      expect((await ask(ctx, key, mode)).map((h) => h.id)).toContain(ken.id);
    });

    it(`${mode}: the lens of each query filters the kept candidates`, async () => {
      const { ctx, key } = await setup();
      await writeFact(ctx, key, 'Ada reviews the billing roadmap', ['team:billing']);
      await writeFact(ctx, key, 'Grace reviews the search roadmap', ['team:search']);
      const all = await ask(ctx, key, mode);
      expect(all.length).toBe(2);
      const billing = await ask(ctx, key, mode, [['team:billing']]);
      expect(billing.map((h) => h.scopes)).toEqual([['team:billing']]);
      const search = await ask(ctx, key, mode, [['team:search']]);
      expect(search.map((h) => h.scopes)).toEqual([['team:search']]);
    });
  }

  it('hybrid_graph: the walk sees an entity’s new and forgotten items on the next query', async () => {
    // The question names Ada; only the graph leads from her trip to what Priya did (the walk's
    // edges are kept between writes: store/search-graph.ts). `ranks.graph` says the walk found it.
    const { ctx, key } = await setup();
    await writeFact(ctx, key, 'Ada Lovelace flew to Lisbon with Priya Raman');
    const puppy = await writeFact(ctx, key, 'Last month Priya Raman adopted a beagle puppy');
    // Turns closer to the question's words fill the fused list's top 20, whose own entities also
    // seed the walk (store/search.ts GRAPH_SEED_HITS): what Priya did is reached through her, not
    // through itself.
    const places = ['Porto', 'Sintra', 'Madrid', 'Seville', 'Valencia', 'Bilbao', 'Malaga'];
    const cousins = ['Maya', 'Jonas', 'Lena', 'Omar'];
    await call('POST', `/api/v1/${ctx}/facts/batch`, {
      key,
      body: {
        facts: cousins.flatMap((who) =>
          places.map((place) => ({ content: `${who} went on a trip to ${place} with her cousin` })),
        ),
      },
    });
    const walked = async (): Promise<string[]> => {
      const body = {
        query: 'Who went on the trip with Ada Lovelace?',
        mode: 'hybrid_graph',
        k: 50,
      };
      const res = await call('POST', `/api/v1/${ctx}/query`, { key, body });
      expect(res.status, await res.clone().text()).toBe(200);
      const hits = (await json<{ results: (Hit & { ranks?: { graph?: number | null } })[] }>(res))
        .results;
      return hits.filter((h) => (h.ranks?.graph ?? null) !== null).map((h) => h.id);
    };
    for (let i = 0; i < 3; i++) expect(await walked()).toContain(puppy.id);

    const pottery = await writeFact(
      ctx,
      key,
      'On Monday Priya Raman signed up for a pottery class',
    );
    expect(await walked()).toContain(pottery.id);

    const del = await call('DELETE', `/api/v1/${ctx}/facts/${puppy.id}`, { key });
    expect(del.status).toBe(204);
    const after = await walked();
    expect(after).not.toContain(puppy.id);
    expect(after).toContain(pottery.id);
  });
});
