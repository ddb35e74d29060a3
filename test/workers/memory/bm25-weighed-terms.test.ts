import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { call, json, setup } from './helpers.ts';

interface Hit {
  id: string;
  content: string;
}

const TEAMS = ['payments', 'search', 'identity', 'storage', 'mobile', 'growth'];

/** Twelve notes that all say "roadmap"; three of them also say "billing", at different lengths. */
const NOTES = [
  ...TEAMS.map((team, i) => `Ada reviews the ${team} roadmap from office ${i}`),
  ...TEAMS.map((team, i) => `Ken drafts the ${team} roadmap for quarter ${i}`),
  'Grace reviews the billing roadmap',
  'Linus reviews the billing roadmap from the Osaka office with the finance team',
  'Billing roadmap, billing owners: Frances and Dennis',
];

async function ask(ctx: string, key: string, query: string, k: number): Promise<Hit[]> {
  const res = await call('POST', `/api/v1/${ctx}/query`, { key, body: { query, mode: 'bm25', k } });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json<{ results: Hit[] }>(res)).results;
}

/** FTS5's own ranking of the Context's items for `match`, read from its database. */
function ftsOrder(ctx: string, match: string, k: number): Promise<string[]> {
  return runInDurableObject(env.CONTEXT_STORE.getByName(ctx), (_obj, state) =>
    state.storage.sql
      .exec<{ content: string }>(
        `SELECT items.content FROM items_fts JOIN items ON items.seq = items_fts.rowid
         WHERE items_fts MATCH ? ORDER BY bm25(items_fts), items_fts.rowid LIMIT ?`,
        match,
        k,
      )
      .toArray()
      .map((r) => r.content),
  );
}

async function notes(): Promise<{ ctx: string; key: string }> {
  const { ctx, key } = await setup();
  const res = await call('POST', `/api/v1/${ctx}/facts/batch`, {
    key,
    body: { facts: NOTES.map((content) => ({ content })) },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return { ctx, key };
}

// bm25 mode matches first on the terms bm25 weighs ("billing"), and reads the rows that only a
// ubiquitous term ("roadmap", in every note, weighed at zero) matches only when it needs more:
// the list must be FTS5's own, row for row.
describe('bm25 matches the weighed terms first and returns the list FTS5 gives', () => {
  it('when fewer rows than k carry weight: the weighed rows, then the rest in FTS5 order', async () => {
    const { ctx, key } = await notes();
    const hits = await ask(ctx, key, 'billing roadmap', 10);
    const fts = await ftsOrder(ctx, '"billing" OR "roadmap"', 10);
    expect(fts).toHaveLength(10);
    expect(hits.map((h) => h.content)).toEqual(fts);
    expect(hits.slice(0, 3).every((h) => /billing/i.test(h.content))).toBe(true);
  });

  it('when enough rows carry weight: the same top k', async () => {
    const { ctx, key } = await notes();
    const hits = await ask(ctx, key, 'billing roadmap', 2);
    expect(hits.map((h) => h.content)).toEqual(await ftsOrder(ctx, '"billing" OR "roadmap"', 2));
  });

  it('when no term carries weight: every term, as FTS5 ranks them', async () => {
    const { ctx, key } = await notes();
    const hits = await ask(ctx, key, 'roadmap', 10);
    expect(hits.map((h) => h.content)).toEqual(await ftsOrder(ctx, '"roadmap"', 10));
  });
});

interface RankedHit extends Hit {
  ranks?: { bm25: number | null };
}

/** Every hit's rank in hybrid's bm25 list is its place in FTS5's own list. */
async function expectBm25ArmIsFts(ctx: string, key: string, query: string, match: string) {
  const res = await call('POST', `/api/v1/${ctx}/query`, {
    key,
    body: { query, mode: 'hybrid', k: 20 },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const hits = (await json<{ results: RankedHit[] }>(res)).results;
  const fts = await ftsOrder(ctx, match, 100);
  const ranked = hits.filter((h) => typeof h.ranks?.bm25 === 'number');
  expect(ranked.length).toBeGreaterThan(5);
  for (const hit of ranked) expect(fts[(hit.ranks?.bm25 ?? 0) - 1]).toBe(hit.content);
}

// The fused modes read their bm25 list the same way, 100 rows deep: from the weighed rows when
// they can fill it, else FTS5's whole list at once.
describe("hybrid's bm25 list is FTS5's own", () => {
  it('when the weighed rows cannot fill it (3 of 15 say "billing")', async () => {
    const { ctx, key } = await notes();
    await expectBm25ArmIsFts(ctx, key, 'billing roadmap', '"billing" OR "roadmap"');
  });

  it('when they can (110 of 250 say "billing")', async () => {
    const { ctx, key } = await setup();
    const facts = Array.from({ length: 250 }, (_, i) => ({
      content:
        i < 110
          ? `${TEAMS[i % 6] ?? ''} billing roadmap note ${i}${' with more words'.repeat(i % 4)}`
          : `${TEAMS[i % 6] ?? ''} roadmap note ${i}${' and some words'.repeat(i % 3)}`,
    }));
    for (let i = 0; i < facts.length; i += 100) {
      const res = await call('POST', `/api/v1/${ctx}/facts/batch`, {
        key,
        body: { facts: facts.slice(i, i + 100) },
      });
      expect(res.status, await res.clone().text()).toBe(201);
    }
    await expectBm25ArmIsFts(ctx, key, 'billing roadmap', '"billing" OR "roadmap"');
  });
});
