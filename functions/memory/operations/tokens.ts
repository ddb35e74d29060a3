import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

/** Token count with the site's tokenizer (o200k_base), so budgets mean the same everywhere. */
export function tokenCount(text: string): number {
  return countTokens(text);
}
