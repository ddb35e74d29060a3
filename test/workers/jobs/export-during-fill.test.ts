import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { backupExports, backupTick, HOUR, patchContext } from './backup-helpers.ts';
import { api, createContext } from './helpers.ts';

// While a schema step rewrites a Context's rows in pieces (schema/runner.ts `fill`), its header
// would name the version before the step while the step's table (step 13's `item_aliases`) is
// already there: no Context at that version could import it. So an export answers 503 and a
// scheduled backup is postponed to the next tick, until the step is done.

async function setFilling(ctx: string, value: string | null): Promise<void> {
  await runInDurableObject(env.CONTEXT_STORE.getByName(ctx), (_obj, state) => {
    if (value === null) state.storage.sql.exec(`DELETE FROM _meta WHERE key = 'filling'`);
    else
      state.storage.sql.exec(
        `INSERT OR REPLACE INTO _meta (key, value) VALUES ('filling', ?)`,
        value,
      );
  });
}

describe('export while a schema step fills its rows', () => {
  it('answers 503 with Retry-After, then exports once the step is done', async () => {
    const ctx = 'export-during-fill';
    await createContext(ctx);
    await setFilling(ctx, '13:session-4');
    const busy = await api(`/api/v1/contexts/${ctx}/export`);
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('60');
    expect(busy.headers.get('content-type')).toContain('application/problem+json');
    expect(((await busy.json()) as { detail: string }).detail).toContain('schema step 13');
    await setFilling(ctx, null);
    const done = await api(`/api/v1/contexts/${ctx}/export`);
    expect(done.status).toBe(200);
    await done.text();
  });

  it('postpones a scheduled backup to the next tick', async () => {
    const ctx = 'backup-during-fill';
    await createContext(ctx);
    expect((await patchContext(ctx, { backup: { every_hours: 1, keep: 2 } })).status).toBe(200);
    await setFilling(ctx, '10:2000');
    const t0 = Date.now() + 10 * HOUR;
    expect(await backupTick(ctx, t0)).toBe(1);
    expect(await backupExports(ctx)).toEqual([]);
    // Due again at once (not an hour later), and written once the step is done.
    await setFilling(ctx, null);
    expect(await backupTick(ctx, t0 + 60_000)).toBe(1);
    expect(await backupExports(ctx)).toHaveLength(1);
  });
});
