import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { chat } from '../../../functions/memory/operations/chat.ts';
import { consolidate } from '../../../functions/memory/operations/consolidate.ts';
import { createDeps } from '../../../functions/memory/operations/create-deps.ts';
import { inferAndStore } from '../../../functions/memory/operations/infer-facts.ts';
import { DEFAULT_MODE } from '../../../functions/memory/operations/query.ts';
import { reembedContext } from '../../../functions/memory/operations/reembed.ts';
import { reflect } from '../../../functions/memory/operations/reflect.ts';
import { ModelError } from '../../../functions/memory/models/provider.ts';
import { embedderOf } from '../../../functions/memory/models/select-provider.ts';
import { call, createContext, json, listFacts, rootAuth } from './model-api.ts';
import { allPromptText, scriptedProvider } from './scripted-provider.ts';

// The operations behind the routes, driven by a scripted generative provider over a real store.
describe('model-backed operations with a scripted provider', () => {
  const ctx = 'models-scripted-ops';
  const auth = rootAuth(ctx);

  it('chat: the prompt carries the retrieved memory and the session history; citations map to ids', async () => {
    await createContext(ctx);
    const stored = await json<{ facts: { id: string }[] }>(
      await call(`/api/v1/${ctx}/facts`, { body: { content: 'Tomasz is allergic to sesame.' } }),
      201,
    );
    await json(await call(`/api/v1/${ctx}/sessions`, { body: { id: 'sx' } }), 201);
    await json(
      await call(`/api/v1/${ctx}/sessions/sx/turns`, {
        body: { role: 'assistant', content: 'How can I help?' },
      }),
      201,
    );
    const provider = scriptedProvider(['{"answer":"Sesame [1].","citations":[1],"known":true}']);
    const out = await chat(
      createDeps(env),
      auth,
      { contextId: ctx, message: 'What is Tomasz allergic to?', session_id: 'sx' },
      provider,
    );
    const prompt = allPromptText(provider);
    expect(prompt).toContain(`(fact ${stored.facts[0]?.id ?? ''}) Tomasz is allergic to sesame.`);
    expect(prompt).toContain('assistant: How can I help?');
    expect(out.response).toMatchObject({
      answer: 'Sesame [1].',
      provider: 'scripted',
      model: 'scripted-text-1',
      extractive: false,
      citations: [{ ref: 1, id: stored.facts[0]?.id }],
    });
    expect(out.budget.used).toBe(110);
  });

  it("charges the embedding tokens too when the embedding model is the provider's", async () => {
    const provider = scriptedProvider(['{"answer":"Sesame [1].","citations":[1],"known":true}']);
    const deps = createDeps(env, { embedder: embedderOf(provider) });
    expect(await reembedContext(deps, ctx)).toBe(0);
    const before = await json<{ usage: { llm_tokens: number } }>(
      await call(`/api/v1/contexts/${ctx}`),
      200,
    );
    // A new message: a cache miss, so one query embedding (1 token, scripted) and one completion (110).
    const out = await chat(
      deps,
      auth,
      { contextId: ctx, message: 'Is Tomasz allergic to sesame?' },
      provider,
    );
    expect(out.budget.used - before.usage.llm_tokens).toBe(111);
    expect(out.response.retrieval).toMatchObject({ mode: DEFAULT_MODE, note: null });
  });

  it('infer=full: model facts are reconciled and stored; invalid model output stores nothing', async () => {
    const provider = scriptedProvider([
      '{"facts":["Tomasz adopted a cat.","Tomasz is allergic to sesame."]}',
    ]);
    const out = await inferAndStore(
      createDeps(env),
      auth,
      {
        contextId: ctx,
        draft: { content: 'I got a cat', scopes: [], metadata: null, sessionId: null },
        speaker: 'Tomasz',
      },
      provider,
    );
    expect(out.facts.map((f) => f.decision.action)).toEqual(['create', 'noop']);
    expect(allPromptText(provider)).toContain('SPEAKER: Tomasz');
    const count = (await listFacts(ctx)).length;
    await expect(
      inferAndStore(
        createDeps(env),
        auth,
        {
          contextId: ctx,
          draft: { content: 'x', scopes: [], metadata: null, sessionId: null },
          speaker: 'T',
        },
        scriptedProvider(['not json']),
      ),
    ).rejects.toBeInstanceOf(ModelError);
    expect((await listFacts(ctx)).length).toBe(count);
  });

  it('reflect and consolidate: the prompt lists the current facts with their ids', async () => {
    const facts = await listFacts(ctx);
    const first = facts[0]?.id ?? '';
    const reflectProvider = scriptedProvider([
      JSON.stringify({
        insights: [{ entity: 'Tomasz', insight: 'Tomasz must avoid sesame.', sources: [first] }],
      }),
    ]);
    const r = await reflect(createDeps(env), auth, { contextId: ctx }, reflectProvider);
    expect(allPromptText(reflectProvider)).toContain(`${first}: ${facts[0]?.content ?? ''}`);
    expect(r.response.insights).toEqual([
      {
        entity: 'Tomasz',
        insight: 'Tomasz must avoid sesame.',
        sources: [first],
        reflection_id: null,
      },
    ]);
    const consolidateProvider = scriptedProvider([JSON.stringify({ decisions: [] })]);
    const c = await consolidate(
      createDeps(env),
      auth,
      { contextId: ctx, dry_run: true },
      consolidateProvider,
    );
    expect(allPromptText(consolidateProvider)).toContain(first);
    expect(c.response.summary.keep).toBe(facts.length);
  });
});
