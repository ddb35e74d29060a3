import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { setObjectDeps } from '../../../functions/memory/context-object/object-deps.ts';
import { createDeps } from '../../../functions/memory/operations/create-deps.ts';
import { BOOTSTRAP, call, countFacts, expectProblem, json, setup } from './helpers.ts';

// Idempotency-Key on the fact-writing routes: replay, conflicts, in-flight duplicates, release.

describe('Idempotency-Key on /facts and /facts/batch', () => {
  it('replays the stored response for the same key and body', async () => {
    const { ctx, key } = await setup();
    const init = { key, body: { content: 'Replay me' }, headers: { 'idempotency-key': 'k-1' } };
    const first = await call('POST', `/api/v1/${ctx}/facts`, init);
    const second = await call('POST', `/api/v1/${ctx}/facts`, init);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotency-replayed')).toBe('true');
    expect(await second.json()).toEqual(await first.json());
    expect(await countFacts(ctx, key)).toBe(1);
  });

  it('answers 409 for the same key with another body', async () => {
    const { ctx, key } = await setup();
    const headers = { 'idempotency-key': 'k-2' };
    expect(
      (await call('POST', `/api/v1/${ctx}/facts`, { key, headers, body: { content: 'one' } }))
        .status,
    ).toBe(201);
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/facts`, { key, headers, body: { content: 'two' } }),
      409,
      'conflict',
    );
    expect(await countFacts(ctx, key)).toBe(1);
  });

  it('answers 409 for a duplicate while the first is in flight', async () => {
    const { ctx, key } = await setup();
    const stub = env.CONTEXT_STORE.getByName(ctx);
    const principal = await env.DB.prepare(
      'SELECT principal_id FROM api_keys WHERE hash IS NOT NULL ORDER BY created_at DESC LIMIT 1',
    ).first<{ principal_id: string }>();
    expect(principal).not.toBeNull();
    // Simulate an attempt that has begun but not completed.
    const body = { content: 'in flight' };
    const hashInput = JSON.stringify({
      operation: 'facts.create',
      body: [{ content: body.content, scopes: [], metadata: null, sessionId: null }],
    });
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(hashInput));
    const hash = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
    const started = await stub.idempotencyBegin(principal?.principal_id ?? '', 'k-3', hash);
    expect(started.state).toBe('proceed');
    const problem = await expectProblem(
      await call('POST', `/api/v1/${ctx}/facts`, {
        key,
        headers: { 'idempotency-key': 'k-3' },
        body,
      }),
      409,
      'conflict',
    );
    expect(problem.detail).toContain('in flight');
  });

  it('keys are per principal: another principal may reuse the key', async () => {
    const { ctx, key } = await setup();
    const headers = { 'idempotency-key': 'shared' };
    expect(
      (await call('POST', `/api/v1/${ctx}/facts`, { key, headers, body: { content: 'a' } })).status,
    ).toBe(201);
    expect(
      (
        await call('POST', `/api/v1/${ctx}/facts`, {
          key: BOOTSTRAP,
          headers,
          body: { content: 'b' },
        })
      ).status,
    ).toBe(201);
    expect(await countFacts(ctx, key)).toBe(2);
  });

  it('a failed write releases the key', async () => {
    const { ctx, key } = await setup();
    const headers = { 'idempotency-key': 'k-4' };
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/facts`, {
        key,
        headers,
        body: { content: 'x', session_id: 'missing' },
      }),
      404,
      'not-found',
    );
    expect(
      (await call('POST', `/api/v1/${ctx}/facts`, { key, headers, body: { content: 'x' } })).status,
    ).toBe(201);
  });

  it('batch replays too', async () => {
    const { ctx, key } = await setup();
    const init = {
      key,
      headers: { 'idempotency-key': 'b-1' },
      body: { facts: [{ content: 'one' }, { content: 'two' }] },
    };
    const first = await json(await call('POST', `/api/v1/${ctx}/facts/batch`, init));
    const again = await call('POST', `/api/v1/${ctx}/facts/batch`, init);
    expect(await again.json()).toEqual(first);
    await expectProblem(
      await call('POST', `/api/v1/${ctx}/facts/batch`, {
        ...init,
        body: { facts: [{ content: 'three' }] },
      }),
      409,
      'conflict',
    );
    expect(await countFacts(ctx, key)).toBe(2);
  });
});

describe('Idempotency-Key with ?infer=full', () => {
  it('replays the inferred response instead of leaving the key in flight', async () => {
    let calls = 0;
    // The operation runs in the Context's object: the scripted inference goes there.
    setObjectDeps((e, wiring) =>
      createDeps(e, {
        ...wiring,
        inferFacts: async (deps, _auth, input) => {
          calls += 1;
          const stored = await deps.store(input.contextId).writeItems(
            [
              {
                kind: 'fact',
                content: `inferred: ${input.draft.content}`,
                scopes: [],
                metadata: null,
                sessionId: null,
                sourceId: null,
                vector: null,
              },
            ],
            null,
          );
          return stored;
        },
      }),
    );
    const { ctx, key } = await setup();
    const send = () =>
      call('POST', `/api/v1/${ctx}/facts?infer=full`, {
        key,
        headers: { 'idempotency-key': 'inf-1' },
        body: { content: 'Bob likes tea' },
      });
    try {
      const first = await send();
      expect(first.status).toBe(201);
      const again = await send();
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotency-replayed')).toBe('true');
      expect(await again.json()).toEqual(await first.json());
      expect(calls).toBe(1);
    } finally {
      setObjectDeps(null);
    }
  });
});
