import { describe, expect, it } from 'vitest';
import { setObjectDeps } from '../../../functions/memory/context-object/object-deps.ts';
import { createDeps } from '../../../functions/memory/operations/create-deps.ts';
import {
  BOOTSTRAP,
  call,
  countFacts,
  expectProblem,
  issueKey,
  json,
  setup,
  writeFact,
} from './helpers.ts';

interface Fact {
  id: string;
  kind: string;
  content: string;
  scopes: string[];
  metadata: Record<string, unknown> | null;
}
describe('POST /api/v1/{ctx}/facts', () => {
  it('writes a fact and returns it in {facts: [Fact]}', async () => {
    const { ctx, key } = await setup();
    const res = await call('POST', `/api/v1/${ctx}/facts`, {
      key,
      body: {
        content: 'Alice leads the Platform team',
        scopes: ['team:eng'],
        metadata: { source: 'hr' },
      },
    });
    expect(res.status).toBe(201);
    const { facts } = await json<{ facts: Fact[] }>(res);
    expect(facts).toHaveLength(1);
    expect(facts[0]).toMatchObject({
      kind: 'fact',
      content: 'Alice leads the Platform team',
      scopes: ['team:eng'],
      metadata: { source: 'hr' },
    });
    const got = await call('GET', `/api/v1/${ctx}/facts/${facts[0]?.id}`, { key });
    expect((await json<Fact>(got)).content).toBe('Alice leads the Platform team');
  });

  it('rejects malformed JSON, wrong types, oversized fields and bad scopes, storing nothing', async () => {
    const { ctx, key } = await setup();
    const path = `/api/v1/${ctx}/facts`;
    await expectProblem(
      await call('POST', path, { key, rawBody: '{"content": "x"' }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', path, { key, body: { content: 7 } }),
      400,
      'validation-error',
    );
    await expectProblem(await call('POST', path, { key, body: {} }), 400, 'validation-error');
    await expectProblem(
      await call('POST', path, { key, body: { content: '   ' } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', path, { key, body: { content: 'x'.repeat(40_000) } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', path, { key, body: { content: 'x', scopes: 'team:eng' } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', path, { key, body: { content: 'x', scopes: ['bad scope'] } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', path, {
        key,
        body: { content: 'x', metadata: { big: 'y'.repeat(20_000) } },
      }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', path, {
        key,
        rawBody: 'content=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', `${path}?infer=partial`, { key, body: { content: 'x' } }),
      400,
      'validation-error',
    );
    expect(await countFacts(ctx, key)).toBe(0);
  });

  it('checks scopes against the write grant (403) and floor (400)', async () => {
    const { ctx, key } = await setup({ 'memory:read': ['team:eng'], 'memory:write': ['team:eng'] });
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/facts`, {
        key,
        body: { content: 'x', scopes: ['team:sales'] },
      }),
      403,
      'forbidden',
    );
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/facts`, { key, body: { content: 'x' } }),
      403,
      'forbidden',
    );
    expect(
      (
        await call('POST', `/api/v1/${ctx}/facts`, {
          key,
          body: { content: 'x', scopes: ['team:eng/user:a'] },
        })
      ).status,
    ).toBe(201);
  });

  it('answers 404 for an unknown session_id and stores nothing', async () => {
    const { ctx, key } = await setup();
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/facts`, {
        key,
        body: { content: 'x', session_id: 'nope' },
      }),
      404,
      'not-found',
    );
    expect(await countFacts(ctx, key)).toBe(0);
  });

  it('answers 422 for ?infer=full while inference is not enabled, never a literal write', async () => {
    // The operation runs in the Context's object: inference is switched off there.
    setObjectDeps((e, wiring) => createDeps(e, { ...wiring, inferFacts: null }));
    const { ctx, key } = await setup();
    const res = await call('POST', `/api/v1/${ctx}/facts?infer=full`, {
      key,
      body: { content: 'Bob likes tea' },
    }).finally(() => setObjectDeps(null));
    const problem = await expectProblem(res, 422, 'unprocessable');
    expect(problem.detail).toContain('infer');
    expect(await countFacts(ctx, key)).toBe(0);
  });

  it('answers 429 for ?infer=full on an enforcement_blocked Context', async () => {
    const { ctx, key } = await setup();
    await call('PATCH', `/api/v1/contexts/${ctx}`, { body: { enforcement_blocked: true } });
    const problem = await expectProblem(
      await call('POST', `/api/v1/${ctx}/facts?infer=full`, { key, body: { content: 'x' } }),
      429,
      'rate-limited',
    );
    expect(problem).toHaveProperty('retry_after');
    // Plain writes are not model-backed and keep working.
    expect(
      (await call('POST', `/api/v1/${ctx}/facts`, { key, body: { content: 'x' } })).status,
    ).toBe(201);
  });
});

describe('POST /api/v1/{ctx}/facts/batch', () => {
  it('writes 1..100 facts', async () => {
    const { ctx, key } = await setup();
    const facts = Array.from({ length: 100 }, (_, i) => ({ content: `Fact number ${i}` }));
    const res = await call('POST', `/api/v1/${ctx}/facts/batch`, { key, body: { facts } });
    expect(res.status).toBe(201);
    expect((await json<{ facts: Fact[] }>(res)).facts).toHaveLength(100);
  });

  it('is all-or-nothing: one bad fact stores none', async () => {
    const { ctx, key } = await setup({ 'memory:read': ['*'], 'memory:write': ['team:eng'] });
    const path = `/api/v1/${ctx}/facts/batch`;
    await expectProblem(
      await call('POST', path, {
        key,
        body: {
          facts: [
            { content: 'ok', scopes: ['team:eng'] },
            { content: 'no', scopes: ['team:sales'] },
          ],
        },
      }),
      403,
      'forbidden',
    );
    await expectProblem(
      await call('POST', path, {
        key,
        body: { facts: [{ content: 'ok', scopes: ['team:eng'] }, { content: 5 }] },
      }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', path, { key, body: { facts: [] } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('POST', path, {
        key,
        body: {
          facts: Array.from({ length: 101 }, () => ({ content: 'x', scopes: ['team:eng'] })),
        },
      }),
      400,
      'validation-error',
    );
    expect(await countFacts(ctx, key)).toBe(0);
  });
});

describe('GET /api/v1/{ctx}/facts', () => {
  it('paginates with a cursor in insertion order', async () => {
    const { ctx, key } = await setup();
    await call('POST', `/api/v1/${ctx}/facts/batch`, {
      key,
      body: { facts: Array.from({ length: 5 }, (_, i) => ({ content: `item ${i}` })) },
    });
    const page1 = await json<{ facts: Fact[]; next_cursor: string | null }>(
      await call('GET', `/api/v1/${ctx}/facts?limit=2`, { key }),
    );
    expect(page1.facts.map((f) => f.content)).toEqual(['item 0', 'item 1']);
    expect(page1.next_cursor).not.toBeNull();
    const page2 = await json<{ facts: Fact[]; next_cursor: string | null }>(
      await call(
        'GET',
        `/api/v1/${ctx}/facts?limit=2&cursor=${encodeURIComponent(page1.next_cursor ?? '')}`,
        { key },
      ),
    );
    expect(page2.facts.map((f) => f.content)).toEqual(['item 2', 'item 3']);
    const page3 = await json<{ facts: Fact[]; next_cursor: string | null }>(
      await call(
        'GET',
        `/api/v1/${ctx}/facts?limit=2&cursor=${encodeURIComponent(page2.next_cursor ?? '')}`,
        { key },
      ),
    );
    expect(page3.facts.map((f) => f.content)).toEqual(['item 4']);
    expect(page3.next_cursor).toBeNull();
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/facts?cursor=garbage!`, { key }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/facts?limit=0`, { key }),
      400,
      'validation-error',
    );
  });

  it('filters by a lens (flat OR, nested AND) and rejects bad lenses', async () => {
    const { ctx, key } = await setup();
    await writeFact(ctx, key, 'eng only', ['team:eng']);
    await writeFact(ctx, key, 'eng in eu', ['team:eng', 'region:eu']);
    await writeFact(ctx, key, 'sales', ['team:sales']);
    const list = async (lens: unknown): Promise<string[]> =>
      (
        await json<{ facts: Fact[] }>(
          await call(
            'GET',
            `/api/v1/${ctx}/facts?lens=${encodeURIComponent(JSON.stringify(lens))}`,
            { key },
          ),
        )
      ).facts
        .map((f) => f.content)
        .sort();
    expect(await list(['team:eng', 'team:sales'])).toEqual(['eng in eu', 'eng only', 'sales']);
    expect(await list([['team:eng', 'region:eu']])).toEqual(['eng in eu']);
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/facts?lens=not-json`, { key }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/facts?lens=${encodeURIComponent('[]')}`, { key }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/facts?lens=${encodeURIComponent('["bad path"]')}`, { key }),
      400,
      'validation-error',
    );
  });

  it('without a lens shows only what the read grant covers; outside it is 403, below the floor 400', async () => {
    const { ctx } = await setup();
    await writeFact(ctx, BOOTSTRAP, 'eng fact', ['team:eng/user:alice']);
    await writeFact(ctx, BOOTSTRAP, 'sales fact', ['team:sales']);
    const eng = await issueKey(ctx, { 'memory:read': ['team:eng'] }, { scopeFloor: 'team:eng' });
    const res = await call('GET', `/api/v1/${ctx}/facts`, { key: eng });
    expect((await json<{ facts: Fact[] }>(res)).facts.map((f) => f.content)).toEqual(['eng fact']);
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/facts?lens=${encodeURIComponent('["team:sales"]')}`, {
        key: eng,
      }),
      403,
      'forbidden',
    );
    await expectProblem(
      await call(
        'GET',
        `/api/v1/${ctx}/facts?lens=${encodeURIComponent('["team:eng/user:alice"]')}`,
        { key: eng },
      ),
      400,
      'validation-error',
    );
  });
});

describe('GET/DELETE /api/v1/{ctx}/facts/{id}', () => {
  it('404 for unknown ids and for facts outside the read grant', async () => {
    const { ctx, key } = await setup();
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/facts/fact_nope`, { key }),
      404,
      'not-found',
    );
    const hidden = await writeFact(ctx, BOOTSTRAP, 'secret', ['team:board']);
    const eng = await issueKey(ctx, { 'memory:read': ['team:eng'] });
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/facts/${hidden.id}`, { key: eng }),
      404,
      'not-found',
    );
  });

  it('deletes with the forget grant (403 without it) and the fact is gone', async () => {
    const { ctx, key } = await setup();
    const fact = await writeFact(ctx, key, 'forget me', ['team:eng']);
    const reader = await issueKey(ctx, { 'memory:read': ['*'] });
    await expectProblem(
      await call('DELETE', `/api/v1/${ctx}/facts/${fact.id}`, { key: reader }),
      403,
      'forbidden',
    );
    expect((await call('DELETE', `/api/v1/${ctx}/facts/${fact.id}`, { key })).status).toBe(204);
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/facts/${fact.id}`, { key }),
      404,
      'not-found',
    );
    await expectProblem(
      await call('DELETE', `/api/v1/${ctx}/facts/${fact.id}`, { key }),
      404,
      'not-found',
    );
  });
});

describe('Context isolation on every facts route', () => {
  it('a key for one Context never reads or writes another', async () => {
    const a = await setup();
    const b = await setup();
    const fact = await writeFact(b.ctx, b.key, 'belongs to b');
    const base = `/api/v1/${b.ctx}/facts`;
    await expectProblem(
      await call('POST', base, { key: a.key, body: { content: 'x' } }),
      403,
      'forbidden',
    );
    await expectProblem(
      await call('POST', `${base}/batch`, { key: a.key, body: { facts: [{ content: 'x' }] } }),
      403,
      'forbidden',
    );
    await expectProblem(await call('GET', base, { key: a.key }), 403, 'forbidden');
    await expectProblem(await call('GET', `${base}/${fact.id}`, { key: a.key }), 403, 'forbidden');
    await expectProblem(
      await call('DELETE', `${base}/${fact.id}`, { key: a.key }),
      403,
      'forbidden',
    );
    expect(await countFacts(b.ctx, b.key)).toBe(1);
    // The same id under the caller's own Context does not exist there.
    await expectProblem(
      await call('GET', `/api/v1/${a.ctx}/facts/${fact.id}`, { key: a.key }),
      404,
      'not-found',
    );
  });

  it('an unknown Context is 404 context-not-found for the bootstrap key', async () => {
    await expectProblem(
      await call('GET', '/api/v1/no-such-context/facts'),
      404,
      'context-not-found',
    );
  });
});
