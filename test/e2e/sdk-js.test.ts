import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  ApiError,
  AuthError,
  MemoryClient,
  NotFoundError,
  ScopeError,
  ValidationError,
  type QueryMode,
} from '../../sdk/js/src/index.ts';
import { provisionAgent } from '../support/provision.ts';

// The TypeScript SDK against the real `wrangler dev`: happy paths and the 4xx classes.
// Retry rules and 429/5xx/network classes are covered against a scripted server in sdk/js/test.
const baseUrl = inject('baseUrl');
const admin = new MemoryClient({ baseUrl, apiKey: inject('bootstrapKey') });
const CONTEXT = `e2e-sdk-js-${Date.now()}`;
let memory: MemoryClient;
let agentKey = '';

beforeAll(async () => {
  agentKey = await provisionAgent(admin, CONTEXT, ['team:a']);
  memory = new MemoryClient({ baseUrl, apiKey: agentKey, contextId: CONTEXT });
});

describe('TypeScript SDK against a real local server', () => {
  it('remembers, recalls in every mode, reads and forgets a fact', async () => {
    const { facts } = await memory.remember('The release train leaves on Thursdays.', {
      scopes: ['team:a'],
      metadata: { source: 'e2e' },
    });
    const id = facts[0]?.id ?? '';
    for (const mode of ['vector', 'bm25', 'hybrid', 'hybrid_graph'] as const) {
      const found = await memory.recall('when does the release train leave?', { mode, k: 3 });
      expect(found.mode).toBe(mode);
      expect(found.results.map((r) => r.id)).toContain(id);
    }
    expect(await memory.getFact(id)).toMatchObject({ id, metadata: { source: 'e2e' } });
    const page = await memory.listFacts({ lens: ['team:a'] });
    expect(page.facts.map((f) => f.id)).toContain(id);
    await memory.forget(id);
    await expect(memory.getFact(id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('replays a fact write with the same Idempotency-Key instead of writing twice', async () => {
    const first = await memory.remember('Idempotent fact.', {
      scopes: ['team:a'],
      idempotencyKey: 'k-1',
    });
    const again = await memory.remember('Idempotent fact.', {
      scopes: ['team:a'],
      idempotencyKey: 'k-1',
    });
    expect(again.facts[0]?.id).toBe(first.facts[0]?.id);
    const batch = await memory.rememberBatch([
      { content: 'Batch one.', scopes: ['team:a'] },
      { content: 'Batch two.', scopes: ['team:a'] },
    ]);
    expect(batch.facts).toHaveLength(2);
  });

  it('keeps sessions and turns, builds context, chats (also streamed), reflects, consolidates', async () => {
    await memory.remember('Dana is the on-call engineer this week.', { scopes: ['team:a'] });
    const session = await memory.createSession({ scopes: ['team:a'] });
    expect(session.scopes).toEqual(['team:a']);
    // A key scoped to team:a cannot open an unscoped session (only the root grant may).
    await expect(memory.createSession()).rejects.toBeInstanceOf(ScopeError);
    await memory.addTurn(session.id, 'user', 'Who is on call?', {
      validFrom: '2023-05-08T13:56:00Z',
    });
    const turns = await memory.listTurns(session.id);
    expect(turns.turns.map((t) => t.content)).toEqual(['Who is on call?']);
    expect(turns.turns.map((t) => t.valid_from)).toEqual(['2023-05-08T13:56:00.000Z']);
    expect((await memory.listSessions()).sessions.map((s) => s.id)).toContain(session.id);
    const block = await memory.context({ query: 'on call', sessionId: session.id });
    expect(block.context).toContain('Dana');
    const answer = await memory.chat('Who is the on-call engineer?');
    expect(answer.answer).toContain('Dana');
    const events = [];
    for await (const e of memory.chatStream('Who is the on-call engineer?')) events.push(e);
    expect(events.map((e) => e.event)).toContain('delta');
    expect(events.at(-1)?.event).toBe('done');
    expect(await memory.reflect()).toMatchObject({ persisted: false });
    expect(await memory.consolidate({ dryRun: true })).toMatchObject({ dry_run: true });
  });

  it('uploads a document and waits until it is processed', async () => {
    const doc = await memory.uploadDocument('# Runbook\n\nRestart the queue consumer first.', {
      filename: 'runbook.md',
      contentType: 'text/markdown',
      scopes: ['team:a'],
    });
    expect(doc.id).toMatch(/^document:/);
    const done = await memory.waitForDocument(doc.id, { intervalMs: 100, timeoutMs: 60_000 });
    expect(done.status).toBe('ready');
  }, 90_000);

  it('reads who it is, lists, edits a fact into a new version, browses entities, explains a query', async () => {
    const who = await memory.whoAmI();
    expect(who).toMatchObject({ context_id: CONTEXT, root: false });
    expect(who.grants['memory:read']).toEqual(['team:a']);
    expect((await admin.whoAmI()).root).toBe(true);
    const contexts = await admin.listContexts({ limit: 100 });
    expect(contexts).toHaveProperty('next_cursor');
    const keys = await admin.listKeys({ contextId: CONTEXT });
    expect(keys.keys.length).toBeGreaterThan(0);
    expect(JSON.stringify(keys)).not.toContain(agentKey);
    expect((await admin.listPrincipals({ kind: 'agent' })).principals.length).toBeGreaterThan(0);
    await expect(memory.listKeys()).rejects.toBeInstanceOf(ScopeError);

    const { facts } = await memory.remember('Mira runs the Oslo office.', { scopes: ['team:a'] });
    const oldId = facts[0]?.id ?? '';
    const edited = await memory.updateFact(oldId, { content: 'Mira runs the Bergen office.' });
    expect(edited.replaces).toBe(oldId);
    const history = await memory.factHistory(edited.fact.id);
    expect(history.versions.map((v) => v.id)).toEqual([oldId, edited.fact.id]);
    const entities = await memory.listEntities({ prefix: 'mi' });
    expect(entities.entities.map((e) => e.name)).toContain('mira');
    const mira = await memory.getEntity('Mira');
    expect(mira.items.map((i) => i.id)).toContain(edited.fact.id);
    await expect(memory.getEntity('nobody-here')).rejects.toBeInstanceOf(NotFoundError);

    const explained = await memory.recall('who runs Bergen?', {
      mode: 'hybrid',
      k: 1,
      explain: true,
    });
    expect(Object.keys(explained.results[0]?.explain?.arms ?? {})).toContain('bm25');
    const plain = await memory.recall('who runs Bergen?', { mode: 'hybrid', k: 1 });
    expect(plain.results[0]).not.toHaveProperty('explain');
  });

  it('is a ten-line quick start', async () => {
    const client = new MemoryClient({ baseUrl, apiKey: agentKey, contextId: CONTEXT });
    await client.remember('Alice prefers answers in German.', { scopes: ['team:a/user:alice'] });
    const { results } = await client.recall('what language does alice want?', { k: 1 });
    expect(results[0]?.content).toBe('Alice prefers answers in German.');
  });
});

describe('TypeScript SDK error classes from the real server', () => {
  it('AuthError (401) for a bad key, with the problem body', async () => {
    const bad = new MemoryClient({
      baseUrl,
      apiKey: 'mem_agent_nopenopenopenopenope0',
      contextId: CONTEXT,
    });
    const err = await bad.recall('x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).body).toMatchObject({ status: 401, title: 'Unauthorized' });
  });

  it('ScopeError (403) for an agent key on a management call and a scope outside the grant', async () => {
    await expect(memory.createContext(`${CONTEXT}-x`)).rejects.toBeInstanceOf(ScopeError);
    await expect(memory.remember('x', { scopes: ['team:b'] })).rejects.toBeInstanceOf(ScopeError);
  });

  it('NotFoundError (404) for a missing fact', async () => {
    await expect(memory.getFact('fact_missing')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('ValidationError (400) for an unknown mode and (422) for the reserved namespace', async () => {
    const err = await memory.recall('x', { mode: 'fuzzy' as QueryMode }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).status).toBe(400);
    const reserved = await admin
      .updateContext(CONTEXT, { namespace: 'internal' })
      .catch((e: unknown) => e);
    expect(reserved).toBeInstanceOf(ValidationError);
    expect((reserved as ValidationError).status).toBe(422);
  });

  it('ApiError (409) for a duplicate Context id', async () => {
    const err = await admin.createContext(CONTEXT).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(409);
  });
});
