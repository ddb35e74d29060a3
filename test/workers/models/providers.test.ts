import { describe, expect, it } from 'vitest';
import { localProvider } from '../../../functions/memory/models/local-provider.ts';
import { openAiProvider } from '../../../functions/memory/models/openai-provider.ts';
import { ModelError } from '../../../functions/memory/models/provider.ts';
import {
  embedderOf,
  selectProvider,
  type ModelEnv,
} from '../../../functions/memory/models/select-provider.ts';
import { completeStructured } from '../../../functions/memory/models/structured.ts';
import {
  aiBinding,
  workersAiProvider,
} from '../../../functions/memory/models/workers-ai-provider.ts';
import { z } from 'zod';

interface Seen {
  url: string;
  headers: Headers;
  body: unknown;
}

/** A stub of an OpenAI-compatible server, speaking the chat and embeddings formats. */
function openAiStub(seen: Seen[], options: { usage?: boolean } = {}): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const body: unknown = JSON.parse(String(init?.body ?? '{}'));
    seen.push({ url, headers: new Headers(init?.headers), body });
    const usage =
      options.usage === false
        ? {}
        : { usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 } };
    if (url.endsWith('/chat/completions')) {
      return Response.json({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        model: 'stub-model',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: '{"ok": true}' },
            finish_reason: 'stop',
          },
        ],
        ...usage,
      });
    }
    if (url.endsWith('/embeddings')) {
      const input = (body as { input: string[] }).input;
      return Response.json({
        object: 'list',
        // Out of order on purpose: the provider must order by index.
        data: input.map((_, i) => ({
          object: 'embedding',
          index: input.length - 1 - i,
          embedding: [input.length - 1 - i, 1],
        })),
        model: 'stub-embed',
        ...(options.usage === false ? {} : { usage: { prompt_tokens: 5, total_tokens: 5 } }),
      });
    }
    return new Response('not found', { status: 404 });
  };
}

const baseEnv: ModelEnv = {
  AI_PROVIDER: 'local',
  WORKERS_AI_TEXT_MODEL: '@cf/meta/llama-4-scout-17b-16e-instruct',
  WORKERS_AI_EMBEDDING_MODEL: '@cf/baai/bge-base-en-v1.5',
  OPENAI_BASE_URL: 'http://stub.local/v1',
  OPENAI_TEXT_MODEL: 'gpt-test',
  OPENAI_EMBEDDING_MODEL: 'embed-test',
};

describe('openai provider against a stub speaking the OpenAI formats', () => {
  it('posts chat completions with the model, key, JSON mode and reports provider usage', async () => {
    const seen: Seen[] = [];
    const provider = openAiProvider({
      baseUrl: 'http://stub.local/v1/',
      apiKey: 'sk-test',
      textModel: 'gpt-test',
      embeddingModel: 'embed-test',
      fetch: openAiStub(seen),
    });
    const { value, completion } = await completeStructured(
      provider,
      [{ role: 'user', content: 'hello' }],
      z.object({ ok: z.boolean() }),
    );
    expect(value).toEqual({ ok: true });
    expect(seen[0]?.url).toBe('http://stub.local/v1/chat/completions');
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer sk-test');
    expect(seen[0]?.body).toMatchObject({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hello' }],
      response_format: { type: 'json_object' },
    });
    expect(completion).toMatchObject({
      provider: 'openai',
      model: 'gpt-test',
      usage: { input_tokens: 42, output_tokens: 7, source: 'provider' },
    });
  });

  it('embeds in input order with the embedding model id', async () => {
    const seen: Seen[] = [];
    const provider = openAiProvider({ ...opts(), fetch: openAiStub(seen) });
    const result = await provider.embed(['a', 'b', 'c']);
    expect(seen[0]?.body).toEqual({ model: 'embed-test', input: ['a', 'b', 'c'] });
    expect(result.model).toBe('embed-test');
    expect(result.vectors.map((v) => v[0])).toEqual([0, 1, 2]);
    expect(result.usage).toEqual({ input_tokens: 5, output_tokens: 0, source: 'provider' });
  });

  it('counts tokens with the tokenizer when the server reports no usage', async () => {
    const provider = openAiProvider({ ...opts(), fetch: openAiStub([], { usage: false }) });
    const c = await provider.complete({ messages: [{ role: 'user', content: 'hello there' }] });
    expect(c.usage.source).toBe('tokenizer');
    expect(c.usage.input_tokens).toBeGreaterThan(0);
  });

  it('turns an HTTP error or an unreachable server into an unavailable ModelError', async () => {
    const failing = openAiProvider({
      ...opts(),
      fetch: async () => new Response('quota', { status: 429 }),
    });
    await expect(failing.complete({ messages: [] })).rejects.toMatchObject({
      failure: { kind: 'unavailable', provider: 'openai' },
    });
    const down = openAiProvider({
      ...opts(),
      fetch: async () => {
        throw new TypeError('connection refused');
      },
    });
    await expect(down.embed(['x'])).rejects.toBeInstanceOf(ModelError);
  });

  function opts() {
    return { baseUrl: 'http://stub.local/v1', textModel: 'gpt-test', embeddingModel: 'embed-test' };
  }
});

describe('workers-ai provider over the AI binding', () => {
  it('runs the configured text and embedding models', async () => {
    const calls: { model: string; inputs: Record<string, unknown> }[] = [];
    const ai = {
      async run(model: string, inputs: Record<string, unknown>): Promise<unknown> {
        calls.push({ model, inputs });
        if (model.includes('bge')) return { shape: [1, 2], data: [[0.5, 0.5]] };
        return {
          response: { answer: 'yes' },
          usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
        };
      },
    };
    const provider = workersAiProvider({
      ai,
      textModel: '@cf/meta/llama-4-scout-17b-16e-instruct',
      embeddingModel: '@cf/baai/bge-base-en-v1.5',
    });
    const c = await provider.complete({ messages: [{ role: 'user', content: 'q' }], json: true });
    expect(c.text).toBe('{"answer":"yes"}');
    expect(c.usage).toEqual({ input_tokens: 3, output_tokens: 2, source: 'provider' });
    const e = await provider.embed(['hello']);
    expect(e.model).toBe('@cf/baai/bge-base-en-v1.5');
    expect(calls.map((x) => x.model)).toEqual([
      '@cf/meta/llama-4-scout-17b-16e-instruct',
      '@cf/baai/bge-base-en-v1.5',
    ]);
    expect(calls[1]?.inputs).toEqual({ text: ['hello'] });
  });

  it('reads the optional AI binding defensively', () => {
    expect(aiBinding({})).toBeUndefined();
    expect(aiBinding({ AI: 'not a binding' })).toBeUndefined();
    expect(aiBinding({ AI: { run: async () => ({}) } })).toBeDefined();
  });
});

describe('provider selection by AI_PROVIDER', () => {
  it('defaults to local, deterministic and offline', async () => {
    const provider = selectProvider(baseEnv);
    expect(provider).toMatchObject({
      name: 'local',
      generative: false,
      embeddingModel: 'local-sif-v2',
    });
    const [a, b] = (await provider.embed(['Maya lives in Lisbon', 'Maya lives in Lisbon'])).vectors;
    expect(Array.from(a ?? [])).toEqual(Array.from(b ?? []));
  });

  it('chooses openai with its models, and workers-ai without a binding fails on use only', async () => {
    expect(selectProvider({ ...baseEnv, AI_PROVIDER: 'openai' })).toMatchObject({
      name: 'openai',
      textModel: 'gpt-test',
      embeddingModel: 'embed-test',
    });
    const wai = selectProvider({ ...baseEnv, AI_PROVIDER: 'workers-ai' });
    expect(wai.name).toBe('workers-ai');
    await expect(wai.complete({ messages: [] })).rejects.toThrow(/no AI binding/);
  });

  it('chooses workers-ai when the optional AI binding is present', () => {
    const ai = { run: async () => ({ response: 'x' }) };
    expect(
      selectProvider({ ...baseEnv, AI_PROVIDER: 'workers-ai', AI: ai } as ModelEnv),
    ).toMatchObject({
      name: 'workers-ai',
      textModel: '@cf/meta/llama-4-scout-17b-16e-instruct',
      embeddingModel: '@cf/baai/bge-base-en-v1.5',
      generative: true,
    });
  });

  it('adapts a provider to the memory core Embedder with normalised vectors', async () => {
    const embedder = embedderOf(localProvider());
    expect(embedder.modelId).toBe('local-sif-v2');
    const [v] = await embedder.embed(['hello world']);
    const norm = Math.sqrt(Array.from(v ?? []).reduce((s, x) => s + x * x, 0));
    expect(norm).toBeCloseTo(1, 5);
  });
});
