import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';
import { sessionScopes } from '../../../functions/memory/store/schema/session-scopes.ts';
import { LATEST_SCHEMA_VERSION } from '../../../functions/memory/store/schema/index.ts';
import { call, createContext, expectProblem, issueKey, json, unique } from './helpers.ts';

interface Session {
  id: string;
  scopes: string[];
  turn_count: number;
}

const ENG = { 'memory:read': ['team:eng'], 'memory:write': ['team:eng'] };

/** A Context holding an HR session with one turn, and an eng key. */
async function hrSession(): Promise<{ ctx: string; eng: string; base: string }> {
  const ctx = await createContext();
  const created = await call('POST', `/api/v1/${ctx}/sessions`, {
    body: { id: 'hr-review', scopes: ['team:hr'], metadata: { subject: 'Carol' } },
  });
  expect(created.status, await created.clone().text()).toBe(201);
  expect((await json<Session>(created)).scopes).toEqual(['team:hr']);
  const turn = await call('POST', `/api/v1/${ctx}/sessions/hr-review/turns`, {
    body: { role: 'user', content: 'Carol asked for a salary review.' },
  });
  expect(turn.status).toBe(201);
  return { ctx, eng: await issueKey(ctx, ENG), base: `/api/v1/${ctx}/sessions` };
}

describe('session scopes', () => {
  it('a team:eng reader neither reads nor learns of a team:hr session: every path is 404', async () => {
    const { ctx, eng, base } = await hrSession();
    for (const path of [
      `${base}/hr-review`,
      `${base}/hr-review/turns`,
      `${base}/hr-review/context`,
    ]) {
      const problem = await expectProblem(await call('GET', path, { key: eng }), 404, 'not-found');
      expect(JSON.stringify(problem)).not.toContain('team:hr');
    }
    await expectProblem(
      await call('POST', `${base}/hr-review/turns`, {
        key: eng,
        body: { role: 'user', content: 'eng was here' },
      }),
      404,
      'not-found',
    );
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/context`, { key: eng, body: { session_id: 'hr-review' } }),
      404,
      'not-found',
    );
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/chat`, {
        key: eng,
        body: { message: 'What did Carol ask?', session_id: 'hr-review' },
      }),
      404,
      'not-found',
    );
    const engForget = await issueKey(ctx, { ...ENG, 'memory:forget': ['team:eng'] });
    await expectProblem(
      await call('DELETE', `${base}/hr-review`, { key: engForget }),
      404,
      'not-found',
    );
    const list = await json<{ sessions: Session[]; total: number }>(
      await call('GET', base, { key: eng }),
    );
    expect(list).toEqual({ sessions: [], total: 0 });
    // The session and its one turn are untouched.
    const root = await json<Session>(await call('GET', `${base}/hr-review`));
    expect(root).toMatchObject({ scopes: ['team:hr'], turn_count: 1 });
  });

  it('scopes are set at creation inside the write grant; none means unscoped (root grant only)', async () => {
    const ctx = await createContext();
    const eng = await issueKey(ctx, ENG);
    const base = `/api/v1/${ctx}/sessions`;
    await expectProblem(await call('POST', base, { key: eng, body: {} }), 403, 'forbidden');
    await expectProblem(
      await call('POST', base, { key: eng, body: { scopes: ['team:hr'] } }),
      403,
      'forbidden',
    );
    await expectProblem(
      await call('POST', base, { key: eng, body: { scopes: ['team:eng/bad segment'] } }),
      400,
      'validation-error',
    );
    const floored = await issueKey(ctx, ENG, { scopeFloor: 'team:eng' });
    await expectProblem(
      await call('POST', base, { key: floored, body: { scopes: ['team:eng/user:ana'] } }),
      400,
      'validation-error',
    );
    const mine = await json<Session>(
      await call('POST', base, { key: eng, body: { id: 'eng-1', scopes: ['team:eng/user:ana'] } }),
    );
    expect(mine.scopes).toEqual(['team:eng/user:ana']);
    const unscoped = await json<Session>(await call('POST', base, { body: { id: 'open' } }));
    expect(unscoped.scopes).toEqual([]);
    const list = await json<{ sessions: Session[]; total: number }>(
      await call('GET', base, { key: eng }),
    );
    expect(list.total).toBe(1);
    expect(list.sessions.map((s) => s.id)).toEqual(['eng-1']);
    await expectProblem(await call('GET', `${base}/open`, { key: eng }), 404, 'not-found');
    // A refused create stored nothing.
    expect((await json<{ total: number }>(await call('GET', base))).total).toBe(2);
  });

  it('reading a session is not writing it: a read-only key may list turns but not add them', async () => {
    const { ctx, base } = await hrSession();
    const hrReader = await issueKey(ctx, {
      'memory:read': ['team:hr'],
      'memory:write': ['team:eng'],
    });
    expect((await call('GET', `${base}/hr-review/turns`, { key: hrReader })).status).toBe(200);
    const problem = await expectProblem(
      await call('POST', `${base}/hr-review/turns`, {
        key: hrReader,
        body: { role: 'user', content: 'x' },
      }),
      403,
      'forbidden',
    );
    expect(problem.detail).toMatch(/memory:write/);
    expect((await json<Session>(await call('GET', `${base}/hr-review`))).turn_count).toBe(1);
  });

  it('a taken session id is a 409 that names nothing of the session holding it', async () => {
    const { eng, base } = await hrSession();
    const problem = await expectProblem(
      await call('POST', base, { key: eng, body: { id: 'hr-review', scopes: ['team:eng'] } }),
      409,
      'conflict',
    );
    expect(JSON.stringify(problem)).not.toMatch(/team:hr|Carol|subject/);
  });

  it('upgrades a Context holding sessions from before scopes: they become unscoped', async () => {
    const ctx = unique('sess-mig');
    const now = new Date().toISOString();
    const before = sessionScopes.version - 1;
    await env.DB.prepare(
      'INSERT INTO contexts (id, schema_version, created_at, updated_at) VALUES (?, ?, ?, ?)',
    )
      .bind(ctx, before, now, now)
      .run();
    await runInDurableObject(env.CONTEXT_STORE.getByName(ctx), (_obj, state) => {
      applyMigrations(state.storage, before);
      state.storage.sql.exec(
        'INSERT INTO sessions (id, metadata, created_at, updated_at) VALUES (?, NULL, ?, ?)',
        'legacy',
        now,
        now,
      );
      state.storage.sql.exec(
        `INSERT INTO turns (id, session_id, role, content, created_at) VALUES ('turn_old', 'legacy', 'user', 'old words', ?)`,
        now,
      );
    });
    const eng = await issueKey(ctx, ENG);
    const base = `/api/v1/${ctx}/sessions`;
    // Before the step runs, reads already treat the old session as unscoped.
    expect((await json<Session>(await call('GET', `${base}/legacy`))).scopes).toEqual([]);
    await expectProblem(await call('GET', `${base}/legacy/turns`, { key: eng }), 404, 'not-found');

    const stub = env.CONTEXT_STORE.getByName(ctx);
    await stub.migrate();
    expect(await stub.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
    const stored = await runInDurableObject(stub, (_obj, state) =>
      state.storage.sql
        .exec<{ id: string; scopes: string }>('SELECT id, scopes FROM sessions')
        .toArray(),
    );
    expect(stored).toEqual([{ id: 'legacy', scopes: '[]' }]);
    const turns = await json<{ turns: { content: string }[] }>(
      await call('GET', `${base}/legacy/turns`),
    );
    expect(turns.turns.map((t) => t.content)).toEqual(['old words']);
    await expectProblem(await call('GET', `${base}/legacy`, { key: eng }), 404, 'not-found');
  });
});
