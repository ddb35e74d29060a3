import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * Exact o200k_base token count of a text. Special-token strings such as `<|endoftext|>` that
 * appear in page text are counted as ordinary text instead of throwing.
 */
export function tokens(text: string): number {
  return countTokens(text, { disallowedSpecial: new Set() });
}
