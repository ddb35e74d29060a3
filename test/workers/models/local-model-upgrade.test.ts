import { env } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryApp } from '../../../functions/memory/app.ts';
import { setObjectDeps } from '../../../functions/memory/context-object/object-deps.ts';
import { createDeps } from '../../../functions/memory/operations/create-deps.ts';
import { reembedContext } from '../../../functions/memory/operations/reembed.ts';
import type { Embedder } from '../../../functions/memory/retrieval/embedder.ts';
import { hashEmbedder } from '../../../functions/memory/retrieval/local-embeddings.ts';
import { embedSif, SIF_MODEL_ID } from '../../../functions/memory/retrieval/sif-embeddings.ts';
import { createContext, json, MANAGEMENT_KEY } from './model-api.ts';

interface QueryResponse {
  mode: string;
  note?: string;
  results: { content: string }[];
}

/**
 * The table before the retrofitted one, as far as a deployment can tell: vectors stored under the
 * id `local-sif-v1`. Its own vectors are gone with its table; what matters here is that they carry
 * an id the current model does not have.
 */
const sifV1Embedder: Embedder = {
  modelId: 'local-sif-v1',
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => embedSif(t));
  },
};

// A Context written by an earlier local model holds its vectors: `local-hash-v1` (hashed n-grams)
// or `local-sif-v1` (plain GloVe, before the WordNet retrofit). After the upgrade it must keep
// answering (bm25, with a note, while the reembed job catches up), and once re-embedded its vector
// mode must find what the new model is for: a paraphrase sharing no word.
describe.each([
  { from: 'local-hash-v1', embedder: hashEmbedder },
  { from: 'local-sif-v1', embedder: sifV1Embedder },
])(`upgrading the local embedding model from $from to ${SIF_MODEL_ID}`, ({ from, embedder }) => {
  afterEach(() => setObjectDeps(null));
  it('keeps an existing Context answering, then re-embeds it and finds paraphrases', async () => {
    expect(embedder.modelId).toBe(from);
    const ctx = `models-local-upgrade-${from}`;
    await createContext(ctx);
    const request = (app: ReturnType<typeof createMemoryApp>, path: string, body: unknown) =>
      app.request(
        `https://example.com/api/v1/${ctx}/${path}`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${MANAGEMENT_KEY}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify(body),
        },
        env,
      );
    // Written by a deployment still on the old model (writes run in the Context's object, so the
    // old model is wired there as well as in the Worker).
    setObjectDeps((e, wiring) => createDeps(e, { ...wiring, embedder }));
    const before = createMemoryApp({ deps: (e) => createDeps(e, { embedder }) });
    for (const content of [
      'We adopted a beagle puppy from the shelter on Saturday',
      'The quarterly budget meeting ran late again',
      'My sister repainted her kitchen yellow',
    ]) {
      await json(await request(before, 'facts', { content }), 201);
    }

    setObjectDeps(null);
    const after = createMemoryApp();
    expect(createDeps(env).embedder.modelId).toBe(SIF_MODEL_ID);
    const during = await json<QueryResponse>(
      await request(after, 'query', { query: 'puppy', mode: 'vector' }),
      200,
    );
    expect(during.mode).toBe('bm25');
    expect(during.note).toContain(`3 item(s) are not yet embedded with ${SIF_MODEL_ID}`);
    expect(SIF_MODEL_ID).toBe('local-sif-v2');
    expect(during.results[0]?.content).toContain('beagle puppy');

    expect(await reembedContext(createDeps(env), ctx)).toBe(0);
    const paraphrase = await json<QueryResponse>(
      await request(after, 'query', { query: 'Did they get a new pet dog?', mode: 'vector' }),
      200,
    );
    expect(paraphrase.mode).toBe('vector');
    expect(paraphrase).not.toHaveProperty('note');
    expect(paraphrase.results[0]?.content).toBe(
      'We adopted a beagle puppy from the shelter on Saturday',
    );
  });
});
