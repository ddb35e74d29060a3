import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { enqueueJob, enqueueSuccessor } from '../../../functions/memory/jobs/enqueue.ts';
import { markSucceeded } from '../../../functions/memory/jobs/job-log.ts';
import type { JobEnvelope } from '../../../functions/memory/jobs/messages.ts';
import { jobRegistry } from '../../../functions/memory/jobs/registry.ts';
import {
  PER_FACT,
  WHOLE_CONTEXT,
  WINDOW,
} from '../../../functions/memory/store/consolidation-set.ts';
import { consolidationCandidates } from '../../../functions/memory/store/consolidation-candidates.ts';
import { insertItems } from '../../../functions/memory/store/items.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';
import { VectorCache } from '../../../functions/memory/store/vectors.ts';
import { plainItem } from '../memory/helpers.ts';
import { call, createContext, json } from './model-api.ts';

// Consolidation past 1,000 facts (store/consolidation-set.ts): a call plans one window with the
// facts most like it anywhere in the Context, so a duplicate written 1,200 facts after its twin
// is still found, and the cadenced job walks a Context in a chain of bounded runs that keeps its
// place, then compares only newly written facts with the whole Context.

const ADJ =
  'amber brisk coral dusty eager frosty gentle hollow ivory jolly keen lucid mellow nimble opal plush quiet rustic silver tidy'.split(
    ' ',
  );
const NOUN =
  'kettle lantern ledger cradle satchel ladder thimble anvil barrel chisel easel funnel goblet hammock inkwell jigsaw kayak locket mitten nozzle'.split(
    ' ',
  );
const PLACE = 'harbour orchard quarry meadow'.split(' ');
const N = 1_250;
const OLD_TWIN = 4;
const NEW_TWIN = 1_201;
const OLD_VALUE = 11;
const NEW_VALUE = 1_151;

/**
 * Fact i: every filler is a distinct triple of words, so no two are near duplicates, and its verb
 * comes too late to be read as an attribute (inference/attributes.ts).
 */
function content(i: number): string {
  if (i === OLD_TWIN) return 'Marisol keeps bees on the roof of the old depot.';
  if (i === NEW_TWIN) return 'marisol keeps bees on the roof of the old depot';
  if (i === OLD_VALUE) return 'Oren lives in Haifa.';
  if (i === NEW_VALUE) return 'Oren moved to Lyon.';
  const [a, n, p] = [ADJ[i % 20], NOUN[Math.floor(i / 20) % 20], PLACE[Math.floor(i / 400)]];
  return `The ${a} ${n} near the ${p} gate waits quietly.`;
}

async function grow(ctx: string): Promise<void> {
  await createContext(ctx);
  for (let i = 0; i < N; i += 100) {
    const facts = Array.from({ length: Math.min(100, N - i) }, (_, j) => ({
      content: content(i + j),
    }));
    await json(await call(`/api/v1/${ctx}/facts/batch`, { body: { facts } }), 201);
  }
}

interface Plan {
  decisions: { action: string; id: string; into?: string; by?: string }[];
  next_cursor: string | null;
  applied: number;
}

class Captured {
  readonly sent: JobEnvelope[] = [];
  async send(body: JobEnvelope): Promise<void> {
    this.sent.push(body);
  }
}

async function runJob(job: JobEnvelope, queue: Captured): Promise<void> {
  const prepared = jobRegistry.get(job.kind)?.prepare(job);
  if (!prepared?.ok) throw new Error(`cannot prepare ${job.kind}`);
  await prepared.run({ ...env, JOBS: queue as unknown as Queue });
}

describe('consolidation at any size', () => {
  it('walks a Context of more than 1,000 facts a window at a time and finds twins far apart', async () => {
    const ctx = 'consolidate-at-size';
    await grow(ctx);
    const ids = new Map((await allFacts(ctx)).map((f) => [f.content, f.id]));
    const id = (i: number) => ids.get(content(i)) ?? '';

    const changes = new Set<string>();
    let cursor: string | null = null;
    let calls = 0;
    do {
      const body: Record<string, unknown> = { dry_run: true, ...(cursor ? { cursor } : {}) };
      const plan: Plan = await json<Plan>(await call(`/api/v1/${ctx}/consolidate`, { body }), 200);
      // A window and the facts like it: never the whole Context.
      expect(plan.decisions.length).toBeLessThanOrEqual(WINDOW * (1 + PER_FACT));
      for (const d of plan.decisions)
        if (d.action !== 'keep') changes.add(`${d.action} ${d.id} ${d.into ?? d.by}`);
      cursor = plan.next_cursor;
      calls++;
    } while (cursor !== null && calls < 20);
    expect(cursor).toBeNull();
    expect(calls).toBe(Math.ceil(N / WINDOW));
    expect([...changes].sort()).toEqual(
      [
        `merge ${id(NEW_TWIN)} ${id(OLD_TWIN)}`,
        `supersede ${id(OLD_VALUE)} ${id(NEW_VALUE)}`,
      ].sort(),
    );

    const bad = await call(`/api/v1/${ctx}/consolidate`, { body: { cursor: 'not-ours' } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');

    // The cadenced job: a chain of runs, each handing its successor the dedup claim.
    const queue = new Captured();
    let job: JobEnvelope | undefined = {
      kind: 'consolidate',
      job_id: 'job_size_0',
      context_id: ctx,
    };
    let runs = 0;
    while (job && runs < 20) {
      await runJob(job, queue);
      runs++;
      job = queue.sent[runs - 1];
    }
    expect(runs).toBeGreaterThanOrEqual(Math.floor((N - 2) / WINDOW));
    expect(queue.sent).toHaveLength(runs - 1);
    const history = await allFacts(ctx, true);
    const closed = history.filter((f) => f.valid_until);
    expect(closed.map((f) => [f.id, f.superseded_by]).sort()).toEqual(
      [
        [id(NEW_TWIN), id(OLD_TWIN)],
        [id(OLD_VALUE), id(NEW_VALUE)],
      ].sort(),
    );

    // Written after the pass: one run compares it with the whole Context and merges it.
    const late = (
      await json<{ facts: { id: string }[] }>(
        await call(`/api/v1/${ctx}/facts`, {
          body: { content: 'Marisol keeps bees on the roof of the old depot!' },
        }),
        201,
      )
    ).facts[0];
    await runJob({ kind: 'consolidate', job_id: 'job_size_late', context_id: ctx }, queue);
    expect(queue.sent).toHaveLength(runs - 1);
    const after = await json<{ valid_until: string | null; superseded_by: string | null }>(
      await call(`/api/v1/${ctx}/facts/${late?.id ?? ''}`),
      200,
    );
    expect(after.superseded_by).toBe(id(OLD_TWIN));
  }, 60_000);

  it('a Context of at most 1,000 facts is planned whole, in one call', async () => {
    const ctx = 'consolidate-whole';
    await createContext(ctx);
    for (const start of [0, 100]) {
      const facts = Array.from({ length: start ? 20 : 100 }, (_, i) => ({
        content: content(start + i),
      }));
      await json(await call(`/api/v1/${ctx}/facts/batch`, { body: { facts } }), 201);
    }
    const plan = await json<Plan>(
      await call(`/api/v1/${ctx}/consolidate`, { body: { dry_run: true } }),
      200,
    );
    expect(plan.next_cursor).toBeNull();
    expect(plan.decisions).toHaveLength(120);
    expect(WHOLE_CONTEXT).toBeGreaterThanOrEqual(120);
  });

  it('a follow-on job inherits the running job’s dedup claim', async () => {
    const queue = new Captured();
    const deps = { DB: env.DB, JOBS: queue as unknown as Queue };
    const request = { kind: 'reembed', context_id: 'claim-ctx' } as const;
    const first = await enqueueJob(deps, request, { dedup: true });
    if (!first.enqueued) throw new Error('first job not enqueued');
    // What the jobs did before: a deduplicated request from inside the running job is refused.
    expect(await enqueueJob(deps, request, { dedup: true })).toEqual({
      enqueued: false,
      reason: 'pending',
    });
    const running = { ...request, job_id: first.job_id } as JobEnvelope;
    const next = await enqueueSuccessor(deps, running);
    expect(next.enqueued).toBe(true);
    await markSucceeded(env.DB, running);
    // The successor holds the claim now: still one pending job for the Context.
    expect(await enqueueJob(deps, request, { dedup: true })).toMatchObject({ enqueued: false });
    // A job that holds no claim while another pending job does enqueues nothing.
    const stray = { ...request, job_id: 'job_stray' } as JobEnvelope;
    expect(await enqueueSuccessor(deps, stray)).toMatchObject({ enqueued: false });
    expect(queue.sent).toHaveLength(2);
  });
});

describe('consolidation candidates', () => {
  it('find a twin that differs in one rare word, and another value of an attribute', async () => {
    await runInDurableObject(env.CONTEXT_STORE.getByName('candidates'), (_obj, state) => {
      applyMigrations(state.storage);
      const sql = state.storage.sql;
      const texts = [
        'Priya repaired the vintage Vespa scooter in Bologna last spring.',
        'Priya works at Ferrari.',
        'Giulia sold her Lambretta.',
        'Ο Νίκος μένει στη Θεσσαλονίκη με τη γάτα του!',
        // Newer than the two above: 40 rows for each word they share, and other subjects' jobs.
        ...Array.from({ length: 40 }, (_, i) => `Priya repaired the ${ADJ[i % 20]} scooter ${i}.`),
        ...Array.from({ length: 40 }, (_, i) => `Marco ${i} works at Ferrari in Bologna.`),
      ];
      const items = texts.map(plainItem);
      state.storage.transactionSync(() =>
        insertItems(sql, new VectorCache(), items, '2024-01-01T00:00:00.000Z'),
      );
      const seqOf = (text: string) =>
        sql.exec<{ seq: number }>('SELECT seq FROM items WHERE content = ?', text).one().seq;
      // "Lambretta" for "Vespa": a word as rare as any differs, so the rarest pair misses the
      // twin and the next one finds it.
      expect(
        consolidationCandidates(
          sql,
          'Priya repaired the vintage Lambretta scooter in Bologna last spring.',
        ),
      ).toContain(seqOf(texts[0] ?? ''));
      // Words outside fts-tokens.ts's mirror (Greek here) are still looked up, after the others.
      expect(
        consolidationCandidates(sql, 'Ο Νίκος μένει στη Θεσσαλονίκη με τη γάτα του.'),
      ).toContain(seqOf(texts[3] ?? ''));
      // Same subject, a verb of the same attribute (employer: work at, work for, join).
      expect(consolidationCandidates(sql, 'Priya joined Ducati.')).toContain(seqOf(texts[1] ?? ''));
    });
  });
});

async function allFacts(
  ctx: string,
  history = false,
): Promise<
  { id: string; content: string; valid_until?: string | null; superseded_by?: string | null }[]
> {
  const out: { id: string; content: string; valid_until?: string | null }[] = [];
  let cursor = '';
  for (;;) {
    const extra = history ? '&include_superseded=true' : '';
    const page = await json<{ facts: typeof out; next_cursor: string | null }>(
      await call(`/api/v1/${ctx}/facts?limit=100${extra}${cursor ? `&cursor=${cursor}` : ''}`),
      200,
    );
    out.push(...page.facts);
    if (!page.next_cursor) return out;
    cursor = encodeURIComponent(page.next_cursor);
  }
}
