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

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    source: a.source === 'provider' && b.source === 'provider' ? 'provider' : 'tokenizer',
  };
}

export const NO_USAGE: TokenUsage = { input_tokens: 0, output_tokens: 0, source: 'provider' };
