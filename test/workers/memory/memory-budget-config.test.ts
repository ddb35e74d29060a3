import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { budgetOf } from '../../../functions/memory/store/memory-budget.ts';
import { call, setup, writeFact } from './helpers.ts';

// `CONTEXT_MEMORY_BUDGET_KIB` reaches every Context's object, and what searches keep stays under
// it. This file runs in both workerd suites: with wrangler.toml's 8 MiB, and with 1 KiB in
// `npm run test:workers:lean`, where nothing fits and every search takes the large-Context paths.
describe('the memory budget a Context object is given', () => {
  it('is the configured one, and searches keep no more than it', async () => {
    const { ctx, key } = await setup();
    for (const text of [
      'Ada leads the Berlin office',
      'Priya moved to Osaka',
      'Linus runs billing',
    ])
      await writeFact(ctx, key, text, ['team:eng']);
    for (const mode of ['bm25', 'vector', 'hybrid', 'hybrid_graph']) {
      const res = await call('POST', `/api/v1/${ctx}/query`, {
        key,
        body: { query: 'who is in Osaka', mode },
      });
      expect(res.status).toBe(200);
    }
    const configured = Number(env.CONTEXT_MEMORY_BUDGET_KIB) * 1024;
    expect(configured).toBeGreaterThan(0);
    const { limit, total } = await runInDurableObject(
      env.CONTEXT_STORE.getByName(ctx),
      (_obj, state) => {
        const budget = budgetOf(state.storage.sql);
        return { limit: budget.limit, total: budget.total() };
      },
    );
    expect(limit).toBe(configured);
    expect(total).toBeLessThanOrEqual(limit);
  });
});
