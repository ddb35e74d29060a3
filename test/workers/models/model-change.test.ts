import { env } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { setObjectDeps } from '../../../functions/memory/context-object/object-deps.ts';
import { chat } from '../../../functions/memory/operations/chat.ts';
import { createDeps } from '../../../functions/memory/operations/create-deps.ts';
import {
  planRetrieval,
  retrieveMemory,
} from '../../../functions/memory/operations/model-retrieval.ts';
import { DEFAULT_MODE } from '../../../functions/memory/operations/query.ts';
import { reembedContext } from '../../../functions/memory/operations/reembed.ts';
import { l2normalise, type Embedder } from '../../../functions/memory/retrieval/embedder.ts';
import { call, createContext, json, rootAuth } from './model-api.ts';

/** Another embedding model: a different id and different vectors. */
const otherModel: Embedder = {
  modelId: 'other-embed-v2',
  async embed(texts) {
    return texts.map((t) => l2normalise(Float32Array.from([t.length, t.split(' ').length, 1])));
  },
};

describe('changing the embedding model', () => {
  afterEach(() => setObjectDeps(null));

  it('falls back to bm25 with a note until the reembed job has caught up, never mixing vectors', async () => {
    const ctx = 'models-embedding-change';
    await createContext(ctx);
    for (const content of [
      'Jonas repairs bicycles.',
      'Jonas lives in Tallinn.',
      'Zainab bakes bread.',
    ]) {
      await json(await call(`/api/v1/${ctx}/facts`, { body: { content } }), 201);
    }
    const before = createDeps(env);
    expect(await planRetrieval(before, ctx, 'hybrid')).toEqual({ mode: 'hybrid', note: null });

    const deps = createDeps(env, { embedder: otherModel });
    const during = await retrieveMemory(deps, {
      contextId: ctx,
      text: 'Jonas bicycles',
      lens: [['*']],
      k: 5,
    });
    expect(during.mode).toBe('bm25');
    expect(during.note).toMatch(/3 item\(s\) are not yet embedded with other-embed-v2/);
    expect(during.memories[0]?.content).toBe('Jonas repairs bicycles.');

    expect(await reembedContext(deps, ctx)).toBe(0);
    const after = await retrieveMemory(deps, {
      contextId: ctx,
      text: 'Jonas bicycles',
      lens: [['*']],
      k: 5,
    });
    // The model-backed paths use the default mode (the best measured one) when none is given.
    expect(after).toMatchObject({ mode: DEFAULT_MODE, note: null });
    // Back on the original model, its vectors are gone too: it falls back the same way.
    expect((await planRetrieval(before, ctx, 'vector')).mode).toBe('bm25');
  });

  it('says so in the chat response', async () => {
    const ctx = 'models-embedding-chat';
    await createContext(ctx);
    await json(
      await call(`/api/v1/${ctx}/facts`, { body: { content: 'Mateo drives a Fiat Panda.' } }),
      201,
    );
    const out = await chat(createDeps(env, { embedder: otherModel }), rootAuth(ctx), {
      contextId: ctx,
      message: 'What car does Mateo drive?',
    });
    expect(out.response.retrieval).toMatchObject({ mode: 'bm25' });
    expect(out.response.retrieval.note).toMatch(/re-embedding in the background/);
    expect(out.response.answer).toContain('Fiat Panda');
  });

  it('makes /query fall back to bm25 with a note, and answers every mode normally once caught up', async () => {
    const ctx = 'models-embedding-query';
    await createContext(ctx);
    for (const content of ['Ilse grows tomatoes.', 'Ilse plays the cello.']) {
      await json(await call(`/api/v1/${ctx}/facts`, { body: { content } }), 201);
    }
    // The same Worker routes with a deployment whose embedding model has just changed.
    // Queries run in the Context's object: the new model is wired there.
    setObjectDeps((e, wiring) => createDeps(e, { ...wiring, embedder: otherModel }));
    const ask = async (mode: string) =>
      json<{ mode: string; note?: string; results: { content: string }[] }>(
        await call(`/api/v1/${ctx}/query`, { body: { query: 'Ilse cello', mode } }),
        200,
      );
    for (const mode of ['vector', 'hybrid', 'hybrid_graph']) {
      const during = await ask(mode);
      expect(during.mode).toBe('bm25');
      expect(during.note).toContain(`this query used bm25 instead of ${mode}`);
      expect(during.results[0]?.content).toBe('Ilse plays the cello.');
    }
    const plain = await ask('bm25');
    expect(plain.mode).toBe('bm25');
    expect(plain).not.toHaveProperty('note');

    expect(await reembedContext(createDeps(env, { embedder: otherModel }), ctx)).toBe(0);
    const after = await ask('hybrid');
    expect(after.mode).toBe('hybrid');
    expect(after).not.toHaveProperty('note');
  });

  it('shows the note in the OpenAPI schema of /query', async () => {
    const doc = await json<{
      paths: Record<string, { post?: { responses: Record<string, unknown> } }>;
    }>(await call('/api/v1/openapi.json'), 200);
    const ok = JSON.stringify(doc.paths['/api/v1/{context_id}/query']?.post?.responses['200']);
    expect(ok).toContain('"note"');
  });
});
