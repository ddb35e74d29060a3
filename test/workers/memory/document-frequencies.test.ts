import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { documentFrequencies } from '../../../functions/memory/store/fts.ts';
import { call, setup, writeFact } from './helpers.ts';

/** How many of the Context's items hold `stem`, as the store's search code reads it. */
function frequency(ctx: string, stem: string): Promise<number> {
  return runInDurableObject(
    env.CONTEXT_STORE.getByName(ctx),
    (_obj, state) => documentFrequencies(state.storage.sql, [stem]).get(stem) ?? 0,
  );
}

// Term weights are read from FTS5's postings and kept between queries; a kept count must never
// outlive a write that changed it (it decides which terms weigh and what feedback expands).
describe('document frequencies follow every write', () => {
  it('counts a stem again after facts holding it are written and forgotten', async () => {
    const { ctx, key } = await setup();
    await writeFact(ctx, key, 'Grace reviews the billing roadmap');
    await writeFact(ctx, key, 'Ken drafts the search roadmap');
    expect(await frequency(ctx, 'bill')).toBe(1);
    expect(await frequency(ctx, 'bill')).toBe(1);
    expect(await frequency(ctx, 'roadmap')).toBe(2);

    const more = await writeFact(ctx, key, 'Billing owners: Frances and Dennis');
    await writeFact(ctx, key, 'Linus moved the billing review to Friday');
    expect(await frequency(ctx, 'bill')).toBe(3);
    expect(await frequency(ctx, 'roadmap')).toBe(2);

    const res = await call('DELETE', `/api/v1/${ctx}/facts/${more.id}`, { key });
    expect(res.status, await res.clone().text()).toBe(204);
    expect(await frequency(ctx, 'bill')).toBe(2);
    expect(await frequency(ctx, 'absent')).toBe(0);
  });
});
