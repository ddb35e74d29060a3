import { GptEncoding } from 'gpt-tokenizer/GptEncoding';
import { LazyTable } from '../retrieval/lazy-table.ts';

/**
 * The o200k_base BPE tokenizer, with its 200k merge ranks loaded from a static asset instead of
 * compiled into the Worker script (`gpt-tokenizer/encoding/o200k_base` imports them: 1 MB gzip
 * of script, and a 200k-entry map built in every isolate at start-up). tables/load-tables.ts
 * provides the asset's bytes once per isolate where tokens are counted, and the encoder is built
 * from them on the first count (about 100 ms: a query, which counts nothing, never pays it); the
 * ranks are the package's own (scripts/table-assets.ts writes them out as JSON), so counts are
 * the same as before.
 */

/** The merge ranks as gpt-tokenizer ships them: a token string, or its bytes when not UTF-8. */
export type MergeRanks = (string | number[])[];

function encodingOf(ranks: MergeRanks): GptEncoding {
  return GptEncoding.getEncodingApi('o200k_base', () => ranks);
}

const encoding = new LazyTable(
  'the o200k_base ranks are not loaded: await loadTables() (tables/load-tables.ts) at the entry of the operation that counts tokens',
  (bytes) => encodingOf(JSON.parse(new TextDecoder().decode(bytes)) as MergeRanks),
);

export function installO200k(ranks: MergeRanks): void {
  encoding.install(encodingOf(ranks));
}

/** The ranks asset's bytes (JSON), parsed into an encoder on the first count. */
export function provideO200k(bytes: Uint8Array): void {
  encoding.provide(bytes);
}

export function o200kInstalled(): boolean {
  return encoding.provided();
}

/** Whether this isolate has built the encoder (tests: a query does not). */
export function o200kDecoded(): boolean {
  return encoding.decoded();
}

/** Tokens of `text` under o200k_base. */
export function countO200k(text: string): number {
  return encoding.get().countTokens(text);
}
