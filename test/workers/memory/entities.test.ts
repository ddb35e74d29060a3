import { describe, expect, it } from 'vitest';
import { call, expectProblem, issueKey, json, setup, writeFact } from './helpers.ts';

// GET /{ctx}/entities and /{ctx}/entities/{name}: the entities the write paths recognised, as a
// reader may see them (the MCP tool list_entities reads the same operation).

interface Entity {
  name: string;
  display: string;
  items: number;
}

async function entities(ctx: string, key: string, query = ''): Promise<Entity[]> {
  const res = await call('GET', `/api/v1/${ctx}/entities${query}`, { key });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json<{ entities: Entity[] }>(res)).entities;
}

describe('GET /api/v1/{ctx}/entities', () => {
  it('lists the names current facts mention, by prefix and page by page', async () => {
    const { ctx, key } = await setup();
    await writeFact(ctx, key, 'Maria Lopez works with Tom Baker in Lisbon.');
    await writeFact(ctx, key, 'Maria Lopez moved to Porto.');
    const all = await entities(ctx, key);
    const maria = all.find((e) => e.name === 'maria lopez');
    expect(maria?.items).toBe(2);
    expect(all.map((e) => e.name)).toContain('lisbon');

    const narrowed = await entities(ctx, key, '?prefix=ma');
    expect(narrowed.map((e) => e.name)).toContain('maria lopez');
    expect(narrowed.every((e) => e.name.startsWith('ma'))).toBe(true);

    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < all.length + 1; i++) {
      const res = await call(
        'GET',
        `/api/v1/${ctx}/entities?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
        { key },
      );
      const page = await json<{ entities: Entity[]; next_cursor: string | null }>(res);
      seen.push(...page.entities.map((e) => e.name));
      cursor = page.next_cursor;
      if (cursor === null) break;
    }
    expect(seen).toEqual(all.map((e) => e.name));
  });

  it('answers bad paging with problems', async () => {
    const { ctx, key } = await setup();
    for (const q of ['limit=0', 'limit=500', 'cursor=not-a-cursor', 'prefix='])
      await expectProblem(
        await call('GET', `/api/v1/${ctx}/entities?${q}`, { key }),
        400,
        'validation-error',
      );
  });
});

describe('GET /api/v1/{ctx}/entities/{name}', () => {
  it('returns the entity with the current facts that mention it, any letter case', async () => {
    const { ctx, key } = await setup();
    const a = await writeFact(ctx, key, 'Maria Lopez works with Tom Baker in Lisbon.');
    const b = await writeFact(ctx, key, 'Maria Lopez moved to Porto.');
    await writeFact(ctx, key, 'Nothing about her here.');
    const res = await call('GET', `/api/v1/${ctx}/entities/${encodeURIComponent('MARIA Lopez')}`, {
      key,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await json<{ entity: Entity; items: { id: string }[] }>(res);
    expect(body.entity).toMatchObject({ name: 'maria lopez', items: 2 });
    expect(body.items.map((i) => i.id)).toEqual([a.id, b.id]);

    const one = await json<{ entity: Entity; items: unknown[] }>(
      await call('GET', `/api/v1/${ctx}/entities/maria%20lopez?limit=1`, { key }),
    );
    expect(one.entity.items).toBe(2);
    expect(one.items).toHaveLength(1);

    // Superseded facts are history: an entity only they mention is gone.
    const edited = await call('PATCH', `/api/v1/${ctx}/facts/${a.id}`, {
      key,
      body: { content: 'Someone works in Lisbon.' },
    });
    expect(edited.status).toBe(200);
    const after = await json<{ entity: Entity; items: { id: string }[] }>(
      await call('GET', `/api/v1/${ctx}/entities/maria%20lopez`, { key }),
    );
    expect(after.items.map((i) => i.id)).toEqual([b.id]);
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/entities/tom%20baker`, { key }),
      404,
      'not-found',
    );
  });

  it('answers unknown names and bad limits with problems', async () => {
    const { ctx, key } = await setup();
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/entities/nobody`, { key }),
      404,
      'not-found',
    );
    for (const q of ['limit=0', 'limit=101', 'limit=x'])
      await expectProblem(
        await call('GET', `/api/v1/${ctx}/entities/nobody?${q}`, { key }),
        400,
        'validation-error',
      );
  });
});

describe('entities and scopes', () => {
  it("never show a team-scoped key another team's entities or facts", async () => {
    const { ctx, key: root } = await setup();
    await writeFact(ctx, root, 'Ingrid Svensson leads the Oslo office.', ['team:sales']);
    await writeFact(ctx, root, 'Ravi deploys the Berlin cluster.', ['team:eng']);
    await writeFact(ctx, root, 'Ravi met Ingrid Svensson in Oslo.', ['team:sales']);
    const eng = await issueKey(ctx, { 'memory:read': ['team:eng'] });

    const listed = await call('GET', `/api/v1/${ctx}/entities?limit=100`, { key: eng });
    const text = await listed.clone().text();
    expect(listed.status).toBe(200);
    expect(text).not.toContain('Ingrid');
    expect(text).not.toContain('Oslo');
    const ravi = (await json<{ entities: Entity[] }>(listed)).entities.find(
      (e) => e.name === 'ravi',
    );
    // Two facts mention him; one is sales', so the eng key counts one.
    expect(ravi?.items).toBe(1);

    const detail = await call('GET', `/api/v1/${ctx}/entities/ravi`, { key: eng });
    const detailText = await detail.clone().text();
    expect(detail.status).toBe(200);
    expect(detailText).not.toContain('Ingrid');
    expect(detailText).not.toContain('team:sales');

    // An entity only the other team's facts mention reads exactly like one that does not exist.
    const hidden = await expectProblem(
      await call('GET', `/api/v1/${ctx}/entities/ingrid%20svensson`, { key: eng }),
      404,
      'not-found',
    );
    const missing = await expectProblem(
      await call('GET', `/api/v1/${ctx}/entities/nobody%20at%20all`, { key: eng }),
      404,
      'not-found',
    );
    expect(hidden.detail.replace('ingrid svensson', 'X')).toBe(
      missing.detail.replace('nobody at all', 'X'),
    );

    const otherCtx = await setup();
    await expectProblem(
      await call('GET', `/api/v1/${ctx}/entities`, { key: otherCtx.key }),
      403,
      'forbidden',
    );
  });
});
