import { countO200k } from '../models/o200k-tokenizer.ts';

/** Token count with the site's tokenizer (o200k_base), so budgets mean the same everywhere. */
export function tokenCount(text: string): number {
  return countO200k(text);
}
