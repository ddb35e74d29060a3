import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { chat } from '../../../functions/memory/operations/chat.ts';
import { createDeps } from '../../../functions/memory/operations/deps.ts';
import {
  planRetrieval,
  retrieveMemory,
} from '../../../functions/memory/operations/model-retrieval.ts';
import { reembedContext } from '../../../functions/memory/operations/reembed.ts';
import { systemAuth } from '../../../functions/memory/operations/turn-extraction.ts';
import { l2normalise, type Embedder } from '../../../functions/memory/retrieval/embedder.ts';
import { call, createContext, json } from './model-api.ts';

/** Another embedding model: a different id and different vectors. */
const otherModel: Embedder = {
  modelId: 'other-embed-v2',
  async embed(texts) {
    return texts.map((t) => l2normalise(Float32Array.from([t.length, t.split(' ').length, 1])));
  },
};

describe('changing the embedding model', () => {
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
    expect(after).toMatchObject({ mode: 'hybrid', note: null });
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
    const out = await chat(createDeps(env, { embedder: otherModel }), systemAuth(ctx), {
      contextId: ctx,
      message: 'What car does Mateo drive?',
    });
    expect(out.response.retrieval).toMatchObject({ mode: 'bm25' });
    expect(out.response.retrieval.note).toMatch(/re-embedding in the background/);
    expect(out.response.answer).toContain('Fiat Panda');
  });
});
