import { z } from 'zod';
import {
  ModelError,
  type Completion,
  type CompletionRequest,
  type EmbeddingResult,
  type ModelProvider,
} from './provider.ts';
import { countedUsage, countTokens } from './token-count.ts';

/** The part of the Workers AI binding we call; typed narrowly so a fake can stand in. */
export interface AiRunner {
  run(model: string, inputs: Record<string, unknown>): Promise<unknown>;
}

/**
 * The `AI` binding is optional: wrangler.toml does not declare `[ai]` because that needs a
 * Cloudflare login even in local dev. A deploy that enables it gets the binding on `env.AI`.
 */
export function aiBinding(env: object): AiRunner | undefined {
  const candidate: unknown = (env as Partial<Record<'AI', unknown>>).AI;
  if (typeof candidate !== 'object' || candidate === null) return undefined;
  const run: unknown = (candidate as Partial<Record<'run', unknown>>).run;
  return typeof run === 'function' ? (candidate as AiRunner) : undefined;
}

const textOutput = z.object({
  response: z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .nullable()
    .optional(),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).optional(),
});

const embeddingOutput = z.object({ data: z.array(z.array(z.number())) });

export interface WorkersAiOptions {
  ai: AiRunner;
  textModel: string;
  embeddingModel: string;
}

export function workersAiProvider(options: WorkersAiOptions): ModelProvider {
  async function run(model: string, inputs: Record<string, unknown>): Promise<unknown> {
    try {
      return await options.ai.run(model, inputs);
    } catch (err) {
      throw new ModelError({
        kind: 'unavailable',
        provider: 'workers-ai',
        detail: `${model} failed: ${String(err)}`,
      });
    }
  }

  return {
    name: 'workers-ai',
    textModel: options.textModel,
    embeddingModel: options.embeddingModel,
    generative: true,

    async complete(request: CompletionRequest): Promise<Completion> {
      const raw = await run(options.textModel, {
        messages: request.messages,
        temperature: 0,
        ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
        ...(request.json ? { response_format: { type: 'json_object' } } : {}),
      });
      const parsed = textOutput.safeParse(raw);
      if (!parsed.success) {
        throw new ModelError({
          kind: 'bad-output',
          provider: 'workers-ai',
          detail: `${options.textModel} answered an unexpected shape`,
        });
      }
      const response = parsed.data.response;
      // With response_format JSON some models hand back the object itself rather than a string.
      const text =
        typeof response === 'string' ? response : response ? JSON.stringify(response) : '';
      const reported = parsed.data.usage;
      return {
        text,
        usage: reported
          ? {
              input_tokens: reported.prompt_tokens,
              output_tokens: reported.completion_tokens,
              source: 'provider',
            }
          : countedUsage(request.messages, text),
        provider: 'workers-ai',
        model: options.textModel,
      };
    },

    async embed(texts: string[]): Promise<EmbeddingResult> {
      const usage = {
        input_tokens: texts.reduce((s, t) => s + countTokens(t), 0),
        output_tokens: 0,
        source: 'tokenizer' as const,
      };
      if (texts.length === 0) return { vectors: [], model: options.embeddingModel, usage };
      const raw = await run(options.embeddingModel, { text: texts });
      const parsed = embeddingOutput.safeParse(raw);
      if (!parsed.success || parsed.data.data.length !== texts.length) {
        throw new ModelError({
          kind: 'bad-output',
          provider: 'workers-ai',
          detail: `${options.embeddingModel} answered an unexpected shape`,
        });
      }
      return {
        vectors: parsed.data.data.map((v) => Float32Array.from(v)),
        model: options.embeddingModel,
        usage,
      };
    },
  };
}
