import type { Embedder } from '../retrieval/embedder.ts';
import { l2normalise } from '../retrieval/embedder.ts';
import { localProvider } from './local-provider.ts';
import { openAiProvider } from './openai-provider.ts';
import { ModelError, type ModelProvider } from './provider.ts';
import { aiBinding, workersAiProvider } from './workers-ai-provider.ts';

/** The model settings read from the Worker's vars (and the optional secret and AI binding). */
export type ModelEnv = Pick<
  Env,
  | 'AI_PROVIDER'
  | 'WORKERS_AI_TEXT_MODEL'
  | 'WORKERS_AI_EMBEDDING_MODEL'
  | 'OPENAI_BASE_URL'
  | 'OPENAI_TEXT_MODEL'
  | 'OPENAI_EMBEDDING_MODEL'
>;

function optionalSecret(env: object, name: 'OPENAI_API_KEY'): string | undefined {
  const value: unknown = (env as Partial<Record<typeof name, unknown>>)[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * The provider `AI_PROVIDER` names. `workers-ai` without an AI binding is a configuration error
 * reported on use (`unavailable`), so reads and direct writes keep working meanwhile.
 */
export function selectProvider(env: ModelEnv): ModelProvider {
  const name = (env.AI_PROVIDER || 'local').trim();
  if (name === 'openai') {
    return openAiProvider({
      baseUrl: env.OPENAI_BASE_URL,
      apiKey: optionalSecret(env, 'OPENAI_API_KEY'),
      textModel: env.OPENAI_TEXT_MODEL,
      embeddingModel: env.OPENAI_EMBEDDING_MODEL,
    });
  }
  if (name === 'workers-ai') {
    const ai = aiBinding(env);
    if (ai) {
      return workersAiProvider({
        ai,
        textModel: env.WORKERS_AI_TEXT_MODEL,
        embeddingModel: env.WORKERS_AI_EMBEDDING_MODEL,
      });
    }
    return unavailableProvider(
      'workers-ai',
      env.WORKERS_AI_TEXT_MODEL,
      env.WORKERS_AI_EMBEDDING_MODEL,
      'AI_PROVIDER is workers-ai but the Worker has no AI binding; add [ai] binding = "AI" to wrangler.toml (see docs/models.md)',
    );
  }
  return localProvider();
}

function unavailableProvider(
  name: string,
  textModel: string,
  embeddingModel: string,
  detail: string,
): ModelProvider {
  const fail = (): never => {
    throw new ModelError({ kind: 'unavailable', provider: name, detail });
  };
  return {
    name,
    textModel,
    embeddingModel,
    generative: true,
    embed: async () => fail(),
    complete: async () => fail(),
  };
}

/** The memory core's `Embedder` view of a provider (vectors normalised, tagged with the model). */
export function embedderOf(provider: ModelProvider): Embedder {
  return {
    modelId: provider.embeddingModel,
    async embed(texts: string[]): Promise<Float32Array[]> {
      const result = await provider.embed(texts);
      return result.vectors.map((v) => l2normalise(v));
    },
  };
}
