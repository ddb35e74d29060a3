import { GptEncoding } from 'gpt-tokenizer/GptEncoding';

/**
 * The o200k_base BPE tokenizer, with its 200k merge ranks loaded from a static asset instead of
 * compiled into the Worker script (`gpt-tokenizer/encoding/o200k_base` imports them: 1 MB gzip
 * of script, and a 200k-entry map built in every isolate at start-up). tables/load-tables.ts
 * installs them once per isolate where tokens are counted; the ranks are the package's own
 * (scripts/table-assets.ts writes them out as JSON), so counts are the same as before.
 */
let encoding: GptEncoding | null = null;

/** The merge ranks as gpt-tokenizer ships them: a token string, or its bytes when not UTF-8. */
export type MergeRanks = (string | number[])[];

export function installO200k(ranks: MergeRanks): void {
  encoding = GptEncoding.getEncodingApi('o200k_base', () => ranks);
}

export function o200kInstalled(): boolean {
  return encoding !== null;
}

/** Tokens of `text` under o200k_base. */
export function countO200k(text: string): number {
  if (encoding === null) {
    throw new Error(
      'the o200k_base ranks are not loaded: await loadTables() (tables/load-tables.ts) at the entry of the operation that counts tokens',
    );
  }
  return encoding.countTokens(text);
}
