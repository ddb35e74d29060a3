import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { jobRegistry } from '../../../functions/memory/jobs/registry.ts';
import { migrateFenced } from '../../../functions/memory/store/migrate-fenced.ts';
import {
  applyMigrations,
  FILL_PIECE,
  readSchemaVersion,
} from '../../../functions/memory/store/schema/runner.ts';
import { turnTime } from '../../../functions/memory/store/schema/turn-time.ts';
import { appendTurn, listTurns } from '../../../functions/memory/store/sessions.ts';
import { call, createContext, json, listFacts, queuedJob } from './model-api.ts';

interface Turn {
  id: string;
  created_at: string;
  valid_from: string;
}

function run(kind: string, body: Record<string, unknown>): Promise<void> {
  const job = jobRegistry.get(kind);
  if (!job) throw new Error(`no ${kind} job`);
  const prepared = job.prepare({ kind, job_id: `job_test_${kind}`, ...body });
  if (!prepared.ok) throw new Error(prepared.error);
  return prepared.run(env);
}

async function session(ctx: string): Promise<void> {
  await createContext(ctx);
  await json(
    await call(`/api/v1/${ctx}/sessions`, { body: { id: 's', metadata: { speaker: 'Dario' } } }),
    201,
  );
}

describe('valid_from on session turns', () => {
  it('is stored UTC-normalised, returned on append and list, and defaults to the append time', async () => {
    const ctx = 'turn-time-roundtrip';
    await session(ctx);
    const said = await json<Turn>(
      await call(`/api/v1/${ctx}/sessions/s/turns`, {
        body: { role: 'user', content: 'Hello!', valid_from: '2023-05-08T13:56:00+02:00' },
      }),
      201,
    );
    expect(said.valid_from).toBe('2023-05-08T11:56:00.000Z');
    expect(Date.parse(said.created_at)).toBeGreaterThan(Date.parse('2024-01-01'));
    const now = await json<Turn>(
      await call(`/api/v1/${ctx}/sessions/s/turns`, {
        body: { role: 'assistant', content: 'Hi.' },
      }),
      201,
    );
    expect(now.valid_from).toBe(now.created_at);
    const page = await json<{ turns: Turn[] }>(
      await call(`/api/v1/${ctx}/sessions/s/turns`, { method: 'GET' }),
      200,
    );
    expect(page.turns.map((t) => t.valid_from)).toEqual([said.valid_from, now.valid_from]);
  });

  it('refuses a valid_from that is not an ISO 8601 date-time with a problem naming it, storing nothing', async () => {
    const ctx = 'turn-time-invalid';
    await session(ctx);
    for (const valid_from of ['last Tuesday', '2023-13-01T00:00:00Z', 17]) {
      const res = await call(`/api/v1/${ctx}/sessions/s/turns`, {
        body: { role: 'user', content: 'x', valid_from },
      });
      const text = await res.text();
      expect(res.status, text).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(text).toContain('valid_from');
    }
    const page = await json<{ turns: Turn[] }>(
      await call(`/api/v1/${ctx}/sessions/s/turns`, { method: 'GET' }),
      200,
    );
    expect(page.turns).toEqual([]);
  });

  it('facts extracted from a turn take its time, session and position, so its relative dates resolve against when it was said', async () => {
    const ctx = 'turn-time-extract';
    await session(ctx);
    await json(
      await call(`/api/v1/${ctx}/sessions/s/turns`, {
        body: { role: 'user', content: 'Morning!', valid_from: '2023-05-08T09:00:00Z' },
      }),
      201,
    );
    const turn = await json<Turn>(
      await call(`/api/v1/${ctx}/sessions/s/turns`, {
        body: {
          role: 'user',
          content: 'I adopted a beagle last Saturday.',
          valid_from: '2023-05-08T09:01:00Z',
        },
      }),
      201,
    );
    await run('extract_turns', await queuedJob(turn.id));
    const facts = (await listFacts(ctx)) as unknown as {
      content: string;
      valid_from: string;
      session: string | null;
      position: number | null;
    }[];
    const adopted = facts.find((f) => f.content.includes('beagle'));
    expect(adopted).toMatchObject({
      valid_from: '2023-05-08T09:01:00.000Z',
      session: 's',
      position: 1,
    });
    // "last Saturday" said on Monday 8 May 2023 is 6 May 2023: a question naming that date finds it.
    const found = await json<{ results: { content: string }[] }>(
      await call(`/api/v1/${ctx}/query`, {
        body: { query: 'what happened on 6 May 2023?', mode: 'bm25', k: 5 },
      }),
      200,
    );
    expect(found.results.map((r) => r.content)).toContain(adopted?.content);
  });
});

describe('schema step turn-time', () => {
  it('gives existing turns their created_at as valid_from; code below the step still appends and lists', async () => {
    const stub = env.CONTEXT_STORE.getByName('turn-time-migration');
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage, turnTime.version - 1);
      sql.exec(
        "INSERT INTO sessions (id, metadata, created_at, updated_at) VALUES ('s', NULL, '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z')",
      );
      const access = { lens: [['*']], writeGrant: ['*'] };
      const before = appendTurn(
        sql,
        {
          sessionId: 's',
          role: 'user',
          content: 'old',
          validFrom: '2020-01-01T00:00:00.000Z',
          access,
        },
        '2024-03-05T10:00:00.000Z',
      );
      // Below the step there is nowhere to keep it: the turn was said when it was stored.
      expect(before).toMatchObject({ ok: true, value: { valid_from: '2024-03-05T10:00:00.000Z' } });
      applyMigrations(state.storage);
      const listed = listTurns(sql, { sessionId: 's', limit: 10, offset: 0, lens: [['*']] });
      expect(listed).toMatchObject({
        ok: true,
        value: { turns: [{ content: 'old', valid_from: '2024-03-05T10:00:00.000Z' }] },
      });
    });
  });

  it('fills existing turns in pieces, a bounded number a call; turns read their time throughout', async () => {
    const stub = env.CONTEXT_STORE.getByName('turn-time-pieces');
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      applyMigrations(state.storage, turnTime.version - 1);
      sql.exec(
        "INSERT INTO sessions (id, metadata, created_at, updated_at) VALUES ('s', NULL, '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z')",
      );
      // 4,500 turns, each stored at its own minute (below the step, when it was stored).
      const N = 4_500;
      const at = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();
      state.storage.transactionSync(() => {
        for (let i = 0; i < N; i++)
          sql.exec(
            'INSERT INTO turns (id, session_id, role, content, created_at) VALUES (?, ?, ?, ?, ?)',
            `turn_${i}`,
            's',
            'user',
            `turn ${i}`,
            at(i),
          );
      });
      const times = () => {
        const listed = listTurns(sql, { sessionId: 's', limit: N + 1, offset: 0, lens: [['*']] });
        if (!listed.ok) throw new Error('list failed');
        return listed.value.turns.map((t) => t.valid_from);
      };
      const unfilled = () =>
        sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM turns WHERE valid_from IS NULL').one().n;
      const call = () => migrateFenced(state.storage, 1, turnTime.version, FILL_PIECE);
      expect(call()).toMatchObject({ ok: true, pending: true });
      // One piece done: the step is not stamped, the rest still unfilled, and every turn reads
      // its time; a turn appended now carries its own.
      expect(readSchemaVersion(sql)).toBe(turnTime.version - 1);
      expect(unfilled()).toBe(N - FILL_PIECE);
      const expected = Array.from({ length: N }, (_, i) => at(i));
      expect(times()).toEqual(expected);
      const late = appendTurn(
        sql,
        {
          sessionId: 's',
          role: 'user',
          content: 'late',
          validFrom: '2020-01-01T00:00:00.000Z',
          access: { lens: [['*']], writeGrant: ['*'] },
        },
        '2024-06-01T00:00:00.000Z',
      );
      expect(late).toMatchObject({ ok: true, value: { valid_from: '2020-01-01T00:00:00.000Z' } });
      let calls = 1;
      for (let run = call(); run.ok && calls < 10; run = call()) {
        calls++;
        if (!run.pending) break;
      }
      // 4,501 turns, 2,000 a call: three calls; then the same as one unbounded run.
      expect(calls).toBe(3);
      expect(readSchemaVersion(sql)).toBe(turnTime.version);
      expect(unfilled()).toBe(0);
      expect(times()).toEqual([...expected, '2020-01-01T00:00:00.000Z']);
    });
  });
});
