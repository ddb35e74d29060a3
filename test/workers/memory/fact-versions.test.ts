import { describe, expect, it } from 'vitest';
import { call, countFacts, expectProblem, issueKey, json, setup, writeFact } from './helpers.ts';

// GET /{ctx}/facts/{id}/history and PATCH /{ctx}/facts/{id}: the REST face of the MCP tools
// fact_history and update_fact (one operation, operations/fact-versions.ts). An edit is a new
// version superseding the current one; the old version stays readable as history.

interface Fact {
  id: string;
  content: string;
  scopes: string[];
  metadata: Record<string, unknown> | null;
  valid_until?: string | null;
  superseded_by?: string | null;
}

describe('PATCH /api/v1/{ctx}/facts/{id}', () => {
  it('writes a new version that supersedes the old one, keeping scopes and metadata', async () => {
    const { ctx, key } = await setup();
    const res = await call('POST', `/api/v1/${ctx}/facts`, {
      key,
      body: { content: 'Dana lives in Porto.', scopes: ['team:a'], metadata: { src: 'chat' } },
    });
    const old = (await json<{ facts: Fact[] }>(res)).facts[0];
    if (!old) throw new Error('no fact');
    const patched = await call('PATCH', `/api/v1/${ctx}/facts/${old.id}`, {
      key,
      body: { content: 'Dana lives in Braga.' },
    });
    expect(patched.status, await patched.clone().text()).toBe(200);
    const { fact, replaces } = await json<{ fact: Fact; replaces: string }>(patched);
    expect(replaces).toBe(old.id);
    expect(fact).toMatchObject({
      content: 'Dana lives in Braga.',
      scopes: ['team:a'],
      metadata: { src: 'chat' },
      superseded_by: null,
    });
    expect(fact.id).not.toBe(old.id);

    // The list shows the current version only; the old one is history.
    const list = await json<{ facts: Fact[] }>(await call('GET', `/api/v1/${ctx}/facts`, { key }));
    expect(list.facts.map((f) => f.content)).toEqual(['Dana lives in Braga.']);
    const closed = await json<Fact>(await call('GET', `/api/v1/${ctx}/facts/${old.id}`, { key }));
    expect(closed.superseded_by).toBe(fact.id);
    expect(closed.valid_until).toBeTruthy();

    // New scopes and metadata replace the old ones when given; scopes may be added.
    const widened = await call('PATCH', `/api/v1/${ctx}/facts/${fact.id}`, {
      key,
      body: {
        content: 'Dana lives in Faro.',
        scopes: ['team:a', 'team:b'],
        metadata: { src: 'form' },
      },
    });
    expect(await json(widened)).toMatchObject({
      fact: { scopes: ['team:a', 'team:b'], metadata: { src: 'form' } },
      replaces: fact.id,
    });
  });

  it('refuses a version that drops a scope (422) and stores nothing', async () => {
    // Readers of team:a would lose the fact without seeing what replaced it.
    const { ctx, key } = await setup();
    const res = await call('POST', `/api/v1/${ctx}/facts`, {
      key,
      body: { content: 'Dana lives in Porto.', scopes: ['team:a'] },
    });
    const old = (await json<{ facts: Fact[] }>(res)).facts[0];
    if (!old) throw new Error('no fact');
    const refused = await expectProblem(
      await call('PATCH', `/api/v1/${ctx}/facts/${old.id}`, {
        key,
        body: { content: 'Dana lives in Faro.', scopes: ['team:b'] },
      }),
      422,
      'unprocessable',
    );
    expect(refused.detail).toContain('team:a');
    const list = await json<{ facts: Fact[] }>(await call('GET', `/api/v1/${ctx}/facts`, { key }));
    expect(list.facts.map((f) => f.content)).toEqual(['Dana lives in Porto.']);
  });

  it('refuses to edit a closed version (409) and keeps the chain as it was', async () => {
    const { ctx, key } = await setup();
    const old = await writeFact(ctx, key, 'The office is in Leeds.');
    const first = await call('PATCH', `/api/v1/${ctx}/facts/${old.id}`, {
      key,
      body: { content: 'The office is in York.' },
    });
    expect(first.status).toBe(200);
    const again = await expectProblem(
      await call('PATCH', `/api/v1/${ctx}/facts/${old.id}`, {
        key,
        body: { content: 'The office is in Hull.' },
      }),
      409,
      'conflict',
    );
    expect(again.detail).toContain('superseded');
    expect(await countFacts(ctx, key)).toBe(1);
  });

  it('answers bad input with problems and stores nothing', async () => {
    const { ctx, key } = await setup();
    const fact = await writeFact(ctx, key, 'Bad input leaves this alone.');
    const bodies: unknown[] = [
      {},
      { content: '' },
      { content: '   ' },
      { content: 5 },
      { content: 'x', scopes: 'team:a' },
      { content: 'x', scopes: [''] },
      { content: 'x', unknown: true },
      { content: 'x'.repeat(40_000) },
    ];
    for (const body of bodies)
      await expectProblem(
        await call('PATCH', `/api/v1/${ctx}/facts/${fact.id}`, { key, body }),
        400,
        'validation-error',
      );
    await expectProblem(
      await call('PATCH', `/api/v1/${ctx}/facts/${fact.id}`, { key, rawBody: '{"content":' }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('PATCH', `/api/v1/${ctx}/facts/fact_missing`, { key, body: { content: 'x' } }),
      404,
      'not-found',
    );
    const list = await json<{ facts: Fact[] }>(await call('GET', `/api/v1/${ctx}/facts`, { key }));
    expect(list.facts.map((f) => f.content)).toEqual(['Bad input leaves this alone.']);
  });

  it("keeps a team-scoped key out of another team's facts", async () => {
    const { ctx, key: root } = await setup();
    const sales = await writeFact(ctx, root, 'Sales closes the quarter on Friday.', ['team:sales']);
    const eng = await writeFact(ctx, root, 'Eng deploys on Wednesdays.', ['team:eng']);
    const engKey = await issueKey(ctx, {
      'memory:read': ['team:eng'],
      'memory:write': ['team:eng'],
      'memory:forget': ['team:eng'],
    });
    // Another team's fact is absent to it (404), and the body names nothing of it.
    const hidden = await expectProblem(
      await call('PATCH', `/api/v1/${ctx}/facts/${sales.id}`, {
        key: engKey,
        body: { content: 'Sales closes on Monday.' },
      }),
      404,
      'not-found',
    );
    expect(JSON.stringify(hidden)).not.toContain('Friday');
    // Its own fact cannot be moved into the other team.
    await expectProblem(
      await call('PATCH', `/api/v1/${ctx}/facts/${eng.id}`, {
        key: engKey,
        body: { content: 'Eng deploys on Thursdays.', scopes: ['team:sales'] },
      }),
      403,
      'forbidden',
    );
    // A reader may not edit at all.
    const reader = await issueKey(ctx, { 'memory:read': ['team:eng'] });
    await expectProblem(
      await call('PATCH', `/api/v1/${ctx}/facts/${eng.id}`, {
        key: reader,
        body: { content: 'Eng deploys daily.' },
      }),
      403,
      'forbidden',
    );
    const left = await json<{ facts: Fact[] }>(await call('GET', `/api/v1/${ctx}/facts`));
    expect(left.facts.map((f) => f.content).sort()).toEqual([
      'Eng deploys on Wednesdays.',
      'Sales closes the quarter on Friday.',
    ]);
  });
});

describe('GET /api/v1/{ctx}/facts/{id}/history', () => {
  it('lists every version oldest first from any version of the chain', async () => {
    const { ctx, key } = await setup();
    const v1 = await writeFact(ctx, key, 'The launch is in May.');
    const v2 = (
      await json<{ fact: Fact }>(
        await call('PATCH', `/api/v1/${ctx}/facts/${v1.id}`, {
          key,
          body: { content: 'The launch is in June.' },
        }),
      )
    ).fact;
    const v3 = (
      await json<{ fact: Fact }>(
        await call('PATCH', `/api/v1/${ctx}/facts/${v2.id}`, {
          key,
          body: { content: 'The launch is in July.' },
        }),
      )
    ).fact;
    for (const from of [v1.id, v2.id, v3.id]) {
      const res = await call('GET', `/api/v1/${ctx}/facts/${from}/history`, { key });
      expect(res.status).toBe(200);
      const history = await json<{ id: string; versions: Fact[] }>(res);
      expect(history.id).toBe(from);
      expect(history.versions.map((v) => v.id)).toEqual([v1.id, v2.id, v3.id]);
      expect(history.versions.map((v) => v.superseded_by ?? null)).toEqual([v2.id, v3.id, null]);
    }
    const single = await writeFact(ctx, key, 'A fact never edited.');
    const alone = await json<{ versions: Fact[] }>(
      await call('GET', `/api/v1/${ctx}/facts/${single.id}/history`, { key }),
    );
    expect(alone.versions.map((v) => v.id)).toEqual([single.id]);
  });

  it('leaves out versions outside the read grant; a hidden fact is 404', async () => {
    const { ctx, key: root } = await setup();
    // The first version is sales' only; the second adds eng, so an eng reader sees it alone.
    const v1 = await writeFact(ctx, root, 'Budget owner is Omar.', ['team:sales']);
    const v2 = (
      await json<{ fact: Fact }>(
        await call('PATCH', `/api/v1/${ctx}/facts/${v1.id}`, {
          key: root,
          body: { content: 'Budget owner is Priya.', scopes: ['team:sales', 'team:eng'] },
        }),
      )
    ).fact;
    const engKey = await issueKey(ctx, { 'memory:read': ['team:eng'] });
    const res = await call('GET', `/api/v1/${ctx}/facts/${v2.id}/history`, { key: engKey });
    const text = await res.clone().text();
    expect(res.status, text).toBe(200);
    expect(text).not.toContain('Omar');
    expect(text).not.toContain(v1.id);
    expect((await json<{ versions: Fact[] }>(res)).versions.map((v) => v.id)).toEqual([v2.id]);
    const hidden = await expectProblem(
      await call('GET', `/api/v1/${ctx}/facts/${v1.id}/history`, { key: engKey }),
      404,
      'not-found',
    );
    expect(JSON.stringify(hidden)).not.toContain('Omar');
    // The root key sees the whole chain.
    const full = await json<{ versions: Fact[] }>(
      await call('GET', `/api/v1/${ctx}/facts/${v2.id}/history`, { key: root }),
    );
    expect(full.versions.map((v) => v.id)).toEqual([v1.id, v2.id]);
  });

  it('is 404 for an unknown id and 403 for a key of another Context', async () => {
    const { ctx, key } = await setup();
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/facts/fact_missing/history`, { key }),
      404,
      'not-found',
    );
    const other = await setup();
    const fact = await writeFact(ctx, key, 'Only this Context has it.');
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/facts/${fact.id}/history`, { key: other.key }),
      403,
      'forbidden',
    );
  });
});
