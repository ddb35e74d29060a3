import { SIF_MODEL_ID, embedSif } from '../retrieval/sif-embeddings.ts';
import { coverage, terms } from '../inference/text.ts';
import type {
  Completion,
  CompletionRequest,
  EmbeddingResult,
  ModelProvider,
  TokenUsage,
} from './provider.ts';
import { countTokens, countedUsage } from './token-count.ts';

/** Name of the local "text model": it is an algorithm, and says so. */
export const LOCAL_TEXT_MODEL = 'local-extractive-v1';

/**
 * The embedding's usage, its tokens counted when first read: the local model is free, so the
 * query and write paths never read it (operations/model-embed.ts charges real models only), and
 * counting would build the tokenizer (about 100 ms of a cold query) for a figure no one reads.
 */
function countedWhenRead(texts: string[]): TokenUsage {
  let tokens: number | null = null;
  return {
    get input_tokens() {
      tokens ??= texts.reduce((s, t) => s + countTokens(t), 0);
      return tokens;
    },
    output_tokens: 0,
    source: 'tokenizer',
  };
}

/**
 * Deterministic and offline. Embeddings are shipped word vectors composed with SIF weights
 * (`local-sif-v2`, retrieval/sif-embeddings.ts); text "completion"
 * only ever quotes lines of its own prompt (the memory it was handed) that best match the last
 * user message, so it cannot invent. Inference code does not prompt it at all (`generative` is
 * false): it runs the extractive algorithms directly and labels their output as extractive.
 */
export function localProvider(): ModelProvider {
  return {
    name: 'local',
    textModel: LOCAL_TEXT_MODEL,
    embeddingModel: SIF_MODEL_ID,
    generative: false,

    async embed(texts: string[]): Promise<EmbeddingResult> {
      return {
        vectors: texts.map((t) => embedSif(t)),
        model: SIF_MODEL_ID,
        usage: countedWhenRead(texts),
      };
    },

    async complete(request: CompletionRequest): Promise<Completion> {
      const last = [...request.messages].reverse().find((m) => m.role === 'user');
      const question = terms(last?.content ?? '');
      const lines = request.messages
        .filter((m) => m !== last)
        .flatMap((m) => m.content.split('\n'))
        .map((line) => ({ line: line.trim(), score: coverage(question, terms(line)) }))
        .filter((l) => l.line && l.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, 3)
        .map((l) => l.line);
      const text =
        lines.length > 0
          ? `(extractive) ${lines.join(' | ')}`
          : '(extractive) I do not know: nothing in the given memory matches.';
      return {
        text,
        usage: countedUsage(request.messages, text),
        provider: 'local',
        model: LOCAL_TEXT_MODEL,
      };
    },
  };
}
