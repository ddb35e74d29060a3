import { z } from 'zod';
import {
  ModelError,
  type Completion,
  type CompletionRequest,
  type EmbeddingResult,
  type ModelProvider,
} from './provider.ts';
import { countedUsage, countTokens } from './token-count.ts';

export interface OpenAiOptions {
  baseUrl: string;
  apiKey?: string;
  textModel: string;
  embeddingModel: string;
  /** Injected in tests (a stub speaking the OpenAI formats); the global fetch otherwise. */
  fetch?: typeof fetch;
}

const usageSchema = z
  .object({ prompt_tokens: z.number(), completion_tokens: z.number().optional() })
  .optional();

const chatResponse = z.object({
  model: z.string().optional(),
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
  usage: usageSchema,
});

const embeddingResponse = z.object({
  data: z.array(z.object({ index: z.number().optional(), embedding: z.array(z.number()) })),
  model: z.string().optional(),
  usage: usageSchema,
});

/** Any OpenAI-compatible endpoint: OpenAI itself, a local Ollama (`/v1`) or vLLM. */
export function openAiProvider(options: OpenAiOptions): ModelProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');

  async function post(path: string, body: unknown): Promise<unknown> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
    } catch (err) {
      throw new ModelError({
        kind: 'unavailable',
        provider: 'openai',
        detail: `${base}${path} unreachable: ${String(err)}`,
      });
    }
    if (!res.ok) {
      const text = await res.text();
      throw new ModelError({
        kind: 'unavailable',
        provider: 'openai',
        detail: `${base}${path} answered ${res.status}: ${text.slice(0, 200)}`,
      });
    }
    return res.json();
  }

  return {
    name: 'openai',
    textModel: options.textModel,
    embeddingModel: options.embeddingModel,
    generative: true,

    async complete(request: CompletionRequest): Promise<Completion> {
      const raw = await post('/chat/completions', {
        model: options.textModel,
        messages: request.messages,
        temperature: 0,
        ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
        ...(request.json ? { response_format: { type: 'json_object' } } : {}),
      });
      const parsed = chatResponse.safeParse(raw);
      if (!parsed.success) {
        throw new ModelError({
          kind: 'bad-output',
          provider: 'openai',
          detail: 'chat completion response is not in the OpenAI format',
        });
      }
      const text = parsed.data.choices[0]?.message.content ?? '';
      const reported = parsed.data.usage;
      const usage = reported
        ? {
            input_tokens: reported.prompt_tokens,
            output_tokens: reported.completion_tokens ?? countTokens(text),
            source: 'provider' as const,
          }
        : countedUsage(request.messages, text);
      return { text, usage, provider: 'openai', model: options.textModel };
    },

    async embed(texts: string[]): Promise<EmbeddingResult> {
      if (texts.length === 0) {
        return {
          vectors: [],
          model: options.embeddingModel,
          usage: { input_tokens: 0, output_tokens: 0, source: 'provider' },
        };
      }
      const raw = await post('/embeddings', { model: options.embeddingModel, input: texts });
      const parsed = embeddingResponse.safeParse(raw);
      if (!parsed.success || parsed.data.data.length !== texts.length) {
        throw new ModelError({
          kind: 'bad-output',
          provider: 'openai',
          detail: 'embeddings response is not in the OpenAI format or has the wrong length',
        });
      }
      const ordered = [...parsed.data.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      const reported = parsed.data.usage;
      return {
        vectors: ordered.map((d) => Float32Array.from(d.embedding)),
        model: options.embeddingModel,
        usage: reported
          ? { input_tokens: reported.prompt_tokens, output_tokens: 0, source: 'provider' }
          : {
              input_tokens: texts.reduce((s, t) => s + countTokens(t), 0),
              output_tokens: 0,
              source: 'tokenizer',
            },
      };
    },
  };
}
