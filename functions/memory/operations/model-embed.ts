import type { ModelProvider, TokenUsage } from '../models/provider.ts';
import { l2normalise } from '../retrieval/embedder.ts';
import type { ContextRow } from './contexts.ts';
import type { OperationDeps } from './deps.ts';
import { chargeTokens } from './model-usage.ts';

/**
 * Embeds for a model-backed path and charges the embedding tokens to the Context when a real
 * embedding model did the work (the local embeddings cost nothing and are not charged).
 * The memory core's `Embedder` does not report usage, so when it is the configured provider's
 * model we call the provider directly to get the numbers.
 */
export async function embedCharged(
  deps: OperationDeps,
  context: ContextRow,
  operation: string,
  provider: ModelProvider,
  texts: string[],
): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  if (!provider.generative || deps.embedder.modelId !== provider.embeddingModel) {
    return deps.embedder.embed(texts);
  }
  const result = await provider.embed(texts);
  await chargeEmbedding(deps, context, operation, provider, result.usage);
  return result.vectors.map((v) => l2normalise(v));
}

async function chargeEmbedding(
  deps: OperationDeps,
  context: ContextRow,
  operation: string,
  provider: ModelProvider,
  usage: TokenUsage,
): Promise<void> {
  if (usage.input_tokens + usage.output_tokens === 0) return;
  await chargeTokens(
    deps,
    context,
    `${operation}.embed`,
    { provider: provider.name, model: provider.embeddingModel, extractive: false },
    usage,
  );
}
