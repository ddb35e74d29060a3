import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { contextStore } from '../../../functions/memory/store/context-store.ts';
import { call, expectProblem, issueKey, json, setup, writeFact } from './helpers.ts';

interface Result {
  id: string;
  kind: string;
  content: string;
  score: number;
  scopes: string[];
  ranks?: { bm25: number | null; vector: number | null; graph?: number | null };
}

const MODES = ['vector', 'bm25', 'hybrid', 'hybrid_graph'] as const;

const CORPUS = [
  'Alice Martin leads the Platform team in Berlin',
  'The Platform team owns the deployment pipeline',
  'Bob prefers green tea over coffee in the morning',
  'The quarterly planning meeting happens every March',
  'Carol moved from the Sales team to Marketing last year',
  'Our office in Lisbon opened in 2021',
  'Deployments are frozen during the holiday season',
  'The cafeteria serves vegetarian lunch on Fridays',
];

async function seed(ctx: string, key: string): Promise<Map<string, string>> {
  const res = await call('POST', `/api/v1/${ctx}/facts/batch`, {
    key,
    body: { facts: CORPUS.map((content) => ({ content })) },
  });
  const { facts } = await json<{ facts: { id: string; content: string }[] }>(res);
  return new Map(facts.map((f) => [f.content, f.id]));
}

async function query(
  ctx: string,
  key: string,
  body: Record<string, unknown>,
): Promise<{ mode: string; note?: string; results: Result[] }> {
  const res = await call('POST', `/api/v1/${ctx}/query`, { key, body });
  expect(res.status, await res.clone().text()).toBe(200);
  return json(res);
}

describe('POST /api/v1/{ctx}/query', () => {
  it.each(MODES)(
    'mode %s finds the relevant fact first, with kind, score and scopes',
    async (mode) => {
      const { ctx, key } = await setup();
      const ids = await seed(ctx, key);
      const body = await query(ctx, key, { query: 'who prefers tea in the morning', mode });
      expect(body.mode).toBe(mode);
      const top = body.results[0];
      expect(top?.id).toBe(ids.get('Bob prefers green tea over coffee in the morning'));
      expect(top).toMatchObject({ kind: 'fact', scopes: [] });
      expect(typeof top?.score).toBe('number');
      if (mode.startsWith('hybrid')) expect(top?.ranks).toBeDefined();
      else expect(top?.ranks).toBeUndefined();
    },
  );

  it('defaults to the best-measured mode (hybrid_graph) with k = 10, honours k, and caps k at 50', async () => {
    const { ctx, key } = await setup();
    await call('POST', `/api/v1/${ctx}/facts/batch`, {
      key,
      body: {
        facts: Array.from({ length: 20 }, (_, i) => ({ content: `note ${i} about the team` })),
      },
    });
    const def = await query(ctx, key, { query: 'team' });
    expect(def.mode).toBe('hybrid_graph');
    expect(def.results).toHaveLength(10);
    expect((await query(ctx, key, { query: 'team', k: 3 })).results).toHaveLength(3);
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/query`, { key, body: { query: 'team', k: 51 } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/query`, { key, body: { query: 'team', k: 0 } }),
      400,
      'validation-error',
    );
  });

  it('answers 400 naming the allowed values for an unknown mode', async () => {
    const { ctx, key } = await setup();
    const problem = await expectProblem(
      await call('POST', `/api/v1/${ctx}/query`, { key, body: { query: 'x', mode: 'semantic' } }),
      400,
      'validation-error',
    );
    for (const mode of MODES) expect(problem.detail).toContain(mode);
  });

  it('rejects malformed bodies, empty queries and bad lenses', async () => {
    const { ctx, key } = await setup();
    const path = `/api/v1/${ctx}/query`;
    await expectProblem(
      await call('POST', path, { key, rawBody: 'nope' }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', path, { key, body: { query: '' } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', path, { key, body: { query: 42 } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', path, { key, body: { query: 'x'.repeat(5000) } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', path, { key, body: { query: 'x', lens: [] } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', path, { key, body: { query: 'x', lens: 'team:eng' } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', path, { key, body: { query: 'x', lens: ['bad path'] } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', path, { key, body: { query: 'x', lens: [[]] } }),
      400,
      'validation-error',
    );
  });

  it('filters every mode by the lens (flat OR, nested AND)', async () => {
    const { ctx, key } = await setup();
    await writeFact(ctx, key, 'Deploy window is Tuesday', ['team:eng']);
    await writeFact(ctx, key, 'Deploy freeze for EU customers', ['team:eng', 'region:eu']);
    await writeFact(ctx, key, 'Deploy the new pricing page', ['team:sales']);
    for (const mode of MODES) {
      const or = await query(ctx, key, { query: 'deploy', mode, lens: ['team:eng', 'team:sales'] });
      expect(or.results).toHaveLength(3);
      const and = await query(ctx, key, {
        query: 'deploy',
        mode,
        lens: [['team:eng', 'region:eu']],
      });
      expect(and.results.map((r) => r.content)).toEqual(['Deploy freeze for EU customers']);
    }
  });

  it('403 for a lens outside the read grant, 400 below the floor, and no lens = the grant', async () => {
    const { ctx, key } = await setup();
    await writeFact(ctx, key, 'eng roadmap item', ['team:eng']);
    await writeFact(ctx, key, 'sales roadmap item', ['team:sales']);
    const eng = await issueKey(ctx, { 'memory:read': ['team:eng'] }, { scopeFloor: 'team:eng' });
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/query`, {
        key: eng,
        body: { query: 'roadmap', lens: ['team:sales'] },
      }),
      403,
      'forbidden',
    );
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/query`, {
        key: eng,
        body: { query: 'roadmap', lens: ['team:eng/user:a'] },
      }),
      400,
      'validation-error',
    );
    for (const mode of MODES) {
      const res = await query(ctx, eng, { query: 'roadmap', mode });
      expect(res.results.map((r) => r.content)).toEqual(['eng roadmap item']);
    }
    const noRead = await issueKey(ctx, { 'memory:write': ['*'] });
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/query`, { key: noRead, body: { query: 'roadmap' } }),
      403,
      'forbidden',
    );
  });

  it('a deleted fact disappears from every mode at once', async () => {
    const { ctx, key } = await setup();
    const ids = await seed(ctx, key);
    const target = ids.get('Bob prefers green tea over coffee in the morning') ?? '';
    for (const mode of MODES) {
      expect(
        (await query(ctx, key, { query: 'Bob green tea', mode, k: 50 })).results.map((r) => r.id),
      ).toContain(target);
    }
    expect((await call('DELETE', `/api/v1/${ctx}/facts/${target}`, { key })).status).toBe(204);
    for (const mode of MODES) {
      expect(
        (await query(ctx, key, { query: 'Bob green tea', mode, k: 50 })).results.map((r) => r.id),
      ).not.toContain(target);
    }
  });

  it('hybrid_graph reaches a fact connected only through a shared entity', async () => {
    const { ctx, key } = await setup();
    await writeFact(ctx, key, 'Project Falcon is run by Dana Whitfield');
    await writeFact(ctx, key, 'Dana Whitfield works from the Oslo office');
    for (let i = 0; i < 10; i++)
      await writeFact(ctx, key, `Unrelated note ${i} about parking spaces`);
    const graph = await query(ctx, key, { query: 'Project Falcon', mode: 'hybrid_graph', k: 3 });
    const contents = graph.results.map((r) => r.content);
    expect(contents[0]).toBe('Project Falcon is run by Dana Whitfield');
    expect(contents).toContain('Dana Whitfield works from the Oslo office');
    const hop = graph.results.find((r) => r.content.includes('Oslo'));
    // Personalised PageRank ranks the hop right after the seed fact it is reached through.
    expect(hop?.ranks?.graph).toBe(2);
    expect(hop?.ranks?.bm25).toBeNull();
  });

  it('items of other kinds (document chunks) are found by every mode with their kind', async () => {
    const { ctx, key } = await setup();
    await writeFact(ctx, key, 'Refunds are issued within 14 days');
    const store = contextStore(env, ctx);
    const { sifEmbedder: localEmbedder } =
      await import('../../../functions/memory/retrieval/sif-embeddings.ts');
    const [values] = await localEmbedder.embed(['The warranty covers water damage for two years']);
    await store.writeItems(
      [
        {
          kind: 'chunk',
          content: 'The warranty covers water damage for two years',
          scopes: [],
          metadata: null,
          sessionId: null,
          sourceId: 'document:test',
          vector: values ? { modelId: localEmbedder.modelId, values } : null,
        },
      ],
      null,
    );
    for (const mode of MODES) {
      const res = await query(ctx, key, { query: 'warranty water damage', mode });
      expect(res.results[0]).toMatchObject({
        kind: 'chunk',
        content: 'The warranty covers water damage for two years',
      });
    }
  });

  it('never compares vectors of another model id', async () => {
    const { ctx, key } = await setup();
    const store = contextStore(env, ctx);
    const foreign = new Float32Array(256).fill(1 / 16);
    await store.writeItems(
      [
        {
          kind: 'fact',
          content: 'zebra crossing rules',
          scopes: [],
          metadata: null,
          sessionId: null,
          sourceId: null,
          vector: { modelId: 'other-model', values: foreign },
        },
      ],
      null,
    );
    // The store never scores a vector of another model id...
    const { sifEmbedder: localEmbedder } =
      await import('../../../functions/memory/retrieval/sif-embeddings.ts');
    const direct = await store.search({
      mode: 'vector',
      text: 'zebra crossing rules',
      vector: { modelId: localEmbedder.modelId, values: new Float32Array(100).fill(1 / 10) },
      k: 50,
      lens: [['*']],
    });
    expect(direct).toHaveLength(0);
    // ...and /query, seeing an item without a vector of the current model, answers in bm25 and
    // says why instead of silently leaving that item out.
    const fallback = await query(ctx, key, {
      query: 'zebra crossing rules',
      mode: 'vector',
      k: 50,
    });
    expect(fallback.mode).toBe('bm25');
    expect(fallback.note).toMatch(/1 item\(s\) are not yet embedded/);
    expect(fallback.results.map((r) => r.content)).toEqual(['zebra crossing rules']);
    expect(
      (await query(ctx, key, { query: 'zebra crossing rules', mode: 'bm25' })).results,
    ).toHaveLength(1);
  });

  it('a key for one Context never queries another; unknown Context is 404', async () => {
    const a = await setup();
    const b = await setup();
    await writeFact(b.ctx, b.key, 'b secret');
    await expectProblem(
      await call('POST', `/api/v1/${b.ctx}/query`, { key: a.key, body: { query: 'secret' } }),
      403,
      'forbidden',
    );
    await expectProblem(
      await call('POST', '/api/v1/nowhere-ctx/query', { body: { query: 'secret' } }),
      404,
      'context-not-found',
    );
    expect((await query(a.ctx, a.key, { query: 'b secret' })).results).toHaveLength(0);
  });
});
