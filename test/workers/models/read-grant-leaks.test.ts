import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { call, createContext, grantedKey, json, type Fact } from './model-api.ts';

// Responses name nothing outside the caller's read grant: not the id of a successor fact, not the
// words of a fact folded into a stored reflection.

async function write(ctx: string, content: string, scopes: string[]): Promise<string> {
  const body = await json<{ facts: { id: string }[] }>(
    await call(`/api/v1/${ctx}/facts`, { body: { content, scopes } }),
    201,
  );
  const id = body.facts[0]?.id;
  if (!id) throw new Error('no fact stored');
  return id;
}

describe('read-grant leaks', () => {
  it('superseded_by never names a successor the reader may not read', async () => {
    const ctx = 'leaks-superseded-by';
    await createContext(ctx);
    const old = await write(ctx, 'The standup is at 09:00.', ['team:eng']);
    const successor = await write(ctx, 'The standup is at 09:30.', ['team:hr']);
    // A link as older versions could leave it: an eng fact closed in favour of an HR one.
    await runInDurableObject(env.CONTEXT_STORE.getByName(ctx), (_obj, state) => {
      const at = new Date().toISOString();
      state.storage.sql.exec('UPDATE items SET valid_until = ? WHERE id = ?', at, old);
      state.storage.sql.exec(
        `INSERT INTO item_links (from_id, to_id, relation, created_at) VALUES (?, ?, 'supersedes', ?)`,
        successor,
        old,
        at,
      );
    });
    const eng = await grantedKey(ctx, 'eng-reader', { read: ['team:eng'] });
    const byId = await json<Fact>(await call(`/api/v1/${ctx}/facts/${old}`, { key: eng }), 200);
    expect(byId.superseded_by).toBeNull();
    const history = await json<{ facts: Fact[] }>(
      await call(`/api/v1/${ctx}/facts?include_superseded=true`, { key: eng }),
      200,
    );
    expect(JSON.stringify(history)).not.toContain(successor);
    // A reader of both still learns which fact took over.
    const both = await json<Fact>(await call(`/api/v1/${ctx}/facts/${old}`), 200);
    expect(both.superseded_by).toBe(successor);
  });

  it('a persisted reflection never carries one team’s facts to another team’s readers', async () => {
    const ctx = 'leaks-reflection';
    await createContext(ctx);
    await write(ctx, 'Nadia leads the payments team.', ['team:eng']);
    await write(ctx, 'Nadia is on parental leave from March.', ['team:hr']);
    const out = await json<{ insights: { insight: string; reflection_id: string | null }[] }>(
      await call(`/api/v1/${ctx}/reflect`, { body: { persist: true } }),
      200,
    );
    expect(out.insights.length).toBeGreaterThanOrEqual(2);
    const eng = await grantedKey(ctx, 'eng-reflections', { read: ['team:eng'] });
    const seen = await json<{ facts: (Fact & { scopes: string[] })[] }>(
      await call(`/api/v1/${ctx}/facts?kind=reflection`, { key: eng }),
      200,
    );
    expect(seen.facts.length).toBeGreaterThan(0);
    for (const r of seen.facts) {
      expect(r.scopes).toEqual(['team:eng']);
      expect(r.content).not.toContain('parental');
    }
  });
});
