import { env, runInDurableObject } from 'cloudflare:test';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { credentialOf } from '../../../functions/memory/access/credential.ts';
import { handleError } from '../../../functions/memory/handle-error.ts';
import type { MemoryEnv } from '../../../functions/memory/hono-env.ts';
import { MODEL_RETRY_AFTER, ModelError } from '../../../functions/memory/models/provider.ts';
import { setup } from '../memory/helpers.ts';

// A model provider that cannot be reached (or answers with something unusable) is no fault of
// ours and may well work a moment later: the request gets a 503 with Retry-After, not a 500
// `internal`. The scale bench's 768-dimension run met three 500s from /facts/batch when its
// loopback embedding server dropped connections under load.

describe('a model that cannot serve a request', () => {
  it('is a 503 problem with Retry-After at the HTTP edge', async () => {
    const app = new Hono<MemoryEnv>();
    app.get('/x', () => {
      throw new ModelError({
        kind: 'unavailable',
        provider: 'openai',
        detail: 'http://127.0.0.1:9/v1/embeddings unreachable',
      });
    });
    app.onError(handleError);
    const res = await app.request('/x', {}, env);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe(String(MODEL_RETRY_AFTER));
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const body = (await res.json()) as { type: string; status: number; detail: string };
    expect(body.status).toBe(503);
    expect(body.type).toMatch(/service-unavailable$/);
    expect(body.detail).toContain('openai model could not be reached');
  });

  it("is a failed Result from the Context's object, whose errors lose their fields over RPC", async () => {
    const { ctx, key } = await setup();
    const stub = env.CONTEXT_STORE.getByName(ctx);
    await runInDurableObject(stub, async (instance) => {
      // This object's model is an OpenAI-compatible endpoint nobody listens on.
      Reflect.set(instance, 'env', {
        ...env,
        AI_PROVIDER: 'openai',
        OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
        OPENAI_TEXT_MODEL: 'text',
        OPENAI_EMBEDDING_MODEL: 'embed',
      });
      const result = await instance.perform({
        credential: await credentialOf(`Bearer ${key}`),
        contextId: ctx,
        rate: { perMinute: 1000, nowMs: Date.now() },
        operation: 'query',
        input: { contextId: ctx, query: 'anything', mode: 'hybrid', k: 3, lens: undefined },
      });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.failure).toMatchObject({
        kind: 'service-unavailable',
        retryAfter: MODEL_RETRY_AFTER,
      });
    });
  });
});
