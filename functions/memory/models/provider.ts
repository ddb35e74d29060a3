import type { MemoryFailure } from '../errors.ts';

/**
 * The one model interface every model-backed path talks to. Three implementations: `local`
 * (deterministic, offline, extractive), `workers-ai` (the AI binding) and `openai` (any
 * OpenAI-compatible HTTP endpoint). Inference code takes a provider as an argument, so tests
 * inject a scripted fake instead of a network model.
 */

export type ProviderName = 'local' | 'workers-ai' | 'openai';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Tokens one model call used: reported by the provider, else counted with the tokenizer. */
export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
  /** `provider` when the model reported the numbers, `tokenizer` when we counted them. */
  source: 'provider' | 'tokenizer';
}

export interface CompletionRequest {
  messages: ChatMessage[];
  /** Ask for one JSON object (OpenAI `response_format: json_object`, Workers AI `json_object`). */
  json?: boolean;
  maxTokens?: number;
}

export interface Completion {
  text: string;
  usage: TokenUsage;
  provider: string;
  model: string;
}

export interface EmbeddingResult {
  vectors: Float32Array[];
  /** Model id stored beside every vector so that models are never mixed. */
  model: string;
  usage: TokenUsage;
}

export interface ModelProvider {
  readonly name: string;
  readonly textModel: string;
  readonly embeddingModel: string;
  /**
   * False for `local`: it cannot generate, so inference code runs its extractive algorithm instead
   * of prompting, and labels the result as extractive.
   */
  readonly generative: boolean;
  embed(texts: string[]): Promise<EmbeddingResult>;
  complete(request: CompletionRequest): Promise<Completion>;
}

/** Expected model failures, as tagged values (custom error properties do not survive DO RPC). */
export type ModelFailure =
  | { kind: 'unavailable'; provider: string; detail: string }
  | { kind: 'bad-output'; provider: string; detail: string };

export class ModelError extends Error {
  readonly failure: ModelFailure;
  constructor(failure: ModelFailure) {
    super(`${failure.provider}: ${failure.detail}`);
    this.name = 'ModelError';
    this.failure = failure;
  }
}

/** Seconds a client waits before retrying a request a model could not serve. */
export const MODEL_RETRY_AFTER = 5;

/**
 * A model that could not be reached, or whose answer could not be used, as the request's failure:
 * a 503 with `Retry-After`, since the same request may well succeed a moment later (a provider's
 * blip, a rate limit, a malformed answer). Before, it surfaced as a 500 `internal`, which tells
 * a client the fault is ours and not worth retrying: the scale bench's 768-dimension run met
 * three when its loopback embedding server dropped connections under load.
 */
export function modelFailure(err: ModelError): MemoryFailure {
  const { provider, detail } = err.failure;
  const what =
    err.failure.kind === 'unavailable' ? 'could not be reached' : 'gave an unusable answer';
  return {
    kind: 'service-unavailable',
    detail: `The ${provider} model ${what} (${detail}); retry shortly`,
    retryAfter: MODEL_RETRY_AFTER,
  };
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    source: a.source === 'provider' && b.source === 'provider' ? 'provider' : 'tokenizer',
  };
}

export const NO_USAGE: TokenUsage = { input_tokens: 0, output_tokens: 0, source: 'provider' };
