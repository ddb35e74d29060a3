import { countO200k } from './o200k-tokenizer.ts';
import type { ChatMessage, TokenUsage } from './provider.ts';

/**
 * Token counts with a real BPE tokenizer (o200k_base), used when a provider does not report usage
 * and for the local provider, whose "model" costs nothing but whose prompts are still measured so
 * that budgets behave the same whichever provider is configured.
 */
export function countTokens(text: string): number {
  return text.length === 0 ? 0 : countO200k(text);
}

export function countMessages(messages: ChatMessage[]): number {
  // Each message carries a few tokens of framing in chat formats; 4 matches OpenAI's accounting.
  return messages.reduce((sum, m) => sum + 4 + countTokens(m.content), 0);
}

export function countedUsage(messages: ChatMessage[], output: string): TokenUsage {
  return {
    input_tokens: countMessages(messages),
    output_tokens: countTokens(output),
    source: 'tokenizer',
  };
}
