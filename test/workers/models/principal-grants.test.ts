import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { jobRegistry } from '../../../functions/memory/jobs/registry.ts';
import {
  call,
  createContext,
  grantedKey,
  json,
  listFacts,
  queuedJob,
  type Fact,
} from './model-api.ts';

// Work done on a principal's behalf (turn extraction, ?infer=full, consolidation) reads, closes
// and writes only inside that principal's grants, and never takes a value away from the readers
// of a fact by closing it in favour of one they cannot see.

async function runQueued(body: Record<string, unknown>): Promise<void> {
  const job = jobRegistry.get(String(body['kind']));
  if (!job) throw new Error(`no ${String(body['kind'])} job`);
  const prepared = job.prepare(body);
  if (!prepared.ok) throw new Error(prepared.error);
  await prepared.run(env);
}

interface Stored {
  facts: (Fact & { scopes: string[]; decision?: { action: string; replaces: string | null } })[];
}

async function hrFact(ctx: string, content: string): Promise<string> {
  const body = await json<Stored>(
    await call(`/api/v1/${ctx}/facts`, { body: { content, scopes: ['team:hr'] } }),
    201,
  );
  const id = body.facts[0]?.id;
  if (!id) throw new Error('no fact stored');
  return id;
}

async function readAs(ctx: string, key: string): Promise<(Fact & { scopes: string[] })[]> {
  const body = await json<Stored>(await call(`/api/v1/${ctx}/facts?limit=100`, { key }), 200);
  return body.facts;
}

describe('background work acts with the grants of the principal who queued it', () => {
  it('a team:eng turn cannot supersede a team:hr fact; the extracted fact is team:eng', async () => {
    const ctx = 'grants-extract-turn';
    await createContext(ctx);
    const madrid = await hrFact(ctx, 'Carol lives in Madrid.');
    // This key may read everything but write only team:eng: reading HR is no licence to retire it.
    const eng = await grantedKey(ctx, 'eng-writer', { read: ['*'], write: ['team:eng'] });
    const hrReader = await grantedKey(ctx, 'hr-reader', { read: ['team:hr'] });
    await json(
      await call(`/api/v1/${ctx}/sessions`, {
        key: eng,
        body: { id: 'standup', scopes: ['team:eng'] },
      }),
      201,
    );
    const turn = await json<{ id: string; extraction: { status: string } }>(
      await call(`/api/v1/${ctx}/sessions/standup/turns`, {
        key: eng,
        body: { role: 'user', content: 'Carol lives in Lisbon.' },
      }),
      201,
    );
    expect(turn.extraction.status).toBe('queued');
    const queued = await queuedJob(turn.id);
    expect(queued['actor']).toMatchObject({
      grants: { 'memory:read': ['*'], 'memory:write': ['team:eng'] },
    });
    await runQueued(queued);

    const all = await listFacts(ctx, 'fact', true);
    const hr = all.find((f) => f.id === madrid);
    expect(hr?.valid_until ?? null).toBeNull();
    const lisbon = all.find((f) => f.content === 'Carol lives in Lisbon.') as
      (Fact & { scopes: string[] }) | undefined;
    expect(lisbon?.scopes).toEqual(['team:eng']);
    expect(lisbon?.metadata).toMatchObject({ source_turn_id: turn.id, inferred: true });
    // HR readers still read Madrid, and nothing of the eng session reaches them.
    const hrView = await readAs(ctx, hrReader);
    expect(hrView.map((f) => f.content)).toEqual(['Carol lives in Madrid.']);
  });

  it('extraction compares only with facts the principal may read', async () => {
    const ctx = 'grants-extract-read';
    await createContext(ctx);
    // Verbatim the same statement in HR: a reader of team:eng only must not be told "already
    // stored" about a fact it cannot see; it gets its own copy.
    const hrCopy = await hrFact(ctx, 'Dana plays the cello.');
    const eng = await grantedKey(ctx, 'eng-only', { read: ['team:eng'], write: ['team:eng'] });
    await json(
      await call(`/api/v1/${ctx}/sessions`, { key: eng, body: { id: 'e', scopes: ['team:eng'] } }),
      201,
    );
    const turn = await json<{ id: string }>(
      await call(`/api/v1/${ctx}/sessions/e/turns`, {
        key: eng,
        body: { role: 'user', content: 'Dana plays the cello.' },
      }),
      201,
    );
    await runQueued(await queuedJob(turn.id));
    const engView = await readAs(ctx, eng);
    expect(engView).toHaveLength(1);
    expect(engView[0]).toMatchObject({ content: 'Dana plays the cello.', scopes: ['team:eng'] });
    expect(engView[0]?.id).not.toBe(hrCopy);
  });

  it('?infer=full never closes a fact in favour of one its readers cannot see', async () => {
    const ctx = 'grants-infer-full';
    await createContext(ctx);
    const madrid = await hrFact(ctx, 'Carol lives in Madrid.');
    // The root grant may write HR, but this fact is written into team:eng only.
    const body = await json<Stored>(
      await call(`/api/v1/${ctx}/facts?infer=full`, {
        body: { content: 'Carol lives in Lisbon.', scopes: ['team:eng'] },
      }),
      201,
    );
    expect(body.facts).toHaveLength(1);
    expect(body.facts[0]?.decision).toMatchObject({ action: 'create', replaces: null });
    expect(JSON.stringify(body)).not.toContain(madrid);
    const history = await listFacts(ctx, 'fact', true);
    expect(history.find((f) => f.id === madrid)?.valid_until ?? null).toBeNull();

    // Within the same scopes the newer value still supersedes the old one.
    const same = await json<Stored>(
      await call(`/api/v1/${ctx}/facts?infer=full`, {
        body: { content: 'Carol lives in Valencia.', scopes: ['team:hr'] },
      }),
      201,
    );
    expect(same.facts[0]?.decision).toMatchObject({ action: 'supersede', replaces: madrid });
  });

  it('consolidation keeps duplicates that live in different scopes', async () => {
    const ctx = 'grants-consolidate';
    await createContext(ctx);
    await hrFact(ctx, 'Elif likes opera.');
    await json(
      await call(`/api/v1/${ctx}/facts`, {
        body: { content: 'elif likes opera', scopes: ['team:eng'] },
      }),
      201,
    );
    type Plan = { summary: { merge: number; keep: number }; applied: number };
    const preview = await json<Plan>(
      await call(`/api/v1/${ctx}/consolidate`, { body: { dry_run: true } }),
      200,
    );
    expect(preview.summary).toMatchObject({ merge: 0, keep: 2 });
    // The cadenced job runs with every grant, and still closes nothing across scopes.
    await runQueued({ kind: 'consolidate', job_id: 'job_grants_consolidate', context_id: ctx });
    const current = await listFacts(ctx);
    expect(current).toHaveLength(2);
  });

  it('consolidation by a scoped writer neither sees nor closes what it may not write', async () => {
    const ctx = 'grants-consolidate-writer';
    await createContext(ctx);
    const shared = await json<Stored>(
      await call(`/api/v1/${ctx}/facts`, {
        body: { content: 'Farid drinks tea.', scopes: ['team:eng', 'team:hr'] },
      }),
      201,
    );
    await json(
      await call(`/api/v1/${ctx}/facts`, {
        body: { content: 'farid drinks tea', scopes: ['team:eng', 'team:hr'] },
      }),
      201,
    );
    const eng = await grantedKey(ctx, 'eng-consolidator', {
      read: ['team:eng'],
      write: ['team:eng'],
    });
    const out = await json<Plan2>(
      await call(`/api/v1/${ctx}/consolidate`, { key: eng, body: {} }),
      200,
    );
    expect(out.applied).toBe(0);
    expect(out.decisions.every((d) => d.action === 'keep')).toBe(true);
    const current = await listFacts(ctx);
    expect(current.map((f) => f.id)).toContain(shared.facts[0]?.id);
    expect(current).toHaveLength(2);
  });
});

type Plan2 = { applied: number; decisions: { action: string; id: string }[] };
