import { o200kInstalled, provideO200k } from '../models/o200k-tokenizer.ts';
import { compromiseInstalled, provideLexicon } from '../retrieval/lexicon.ts';
import { provideThesaurus, thesaurusInstalled } from '../retrieval/synonyms.ts';
import { provideWordVectors, wordVectorsInstalled } from '../retrieval/word-vector-table.ts';

/**
 * Where the build puts the read-only tables (scripts/table-assets.ts): static assets of the
 * Worker, read through its `ASSETS` binding, so that they count against no script-size limit.
 */
export const TABLE_ASSETS = {
  wordVectors: '/_engram/tables/word-vectors.bin',
  o200k: '/_engram/tables/o200k_base.json',
  thesaurus: '/_engram/tables/thesaurus.txt',
  lexicon: '/_engram/tables/lexicon.json',
} as const;

/** What the tables are read through: the `ASSETS` binding (or a stand-in in tests). */
export interface TableFetcher {
  fetch(input: string): Promise<Response>;
}

// Any origin: the assets binding resolves the path only.
const ORIGIN = 'https://assets.invalid';

let loading: Promise<void> | null = null;

async function read(assets: TableFetcher, path: string): Promise<Uint8Array> {
  const res = await assets.fetch(`${ORIGIN}${path}`);
  if (!res.ok) {
    throw new Error(
      `the table asset ${path} answered ${res.status}: run \`npm run build\` (it writes dist${path}) before starting or deploying the Worker`,
    );
  }
  return new Uint8Array(await res.arrayBuffer());
}

function installed(): boolean {
  return (
    wordVectorsInstalled() && o200kInstalled() && compromiseInstalled() && thesaurusInstalled()
  );
}

async function load(assets: TableFetcher): Promise<void> {
  // Only the bytes are read here: each table is decoded on its first use (retrieval/lazy-table.ts),
  // so a question pays for the tables its mode reads and nothing builds the tokenizer until a
  // token is counted.
  const [vectors, ranks, thesaurus, lexicon] = await Promise.all([
    wordVectorsInstalled() ? null : read(assets, TABLE_ASSETS.wordVectors),
    o200kInstalled() ? null : read(assets, TABLE_ASSETS.o200k),
    thesaurusInstalled() ? null : read(assets, TABLE_ASSETS.thesaurus),
    compromiseInstalled() ? null : read(assets, TABLE_ASSETS.lexicon),
  ]);
  if (vectors !== null) provideWordVectors(vectors);
  if (ranks !== null) provideO200k(ranks);
  if (thesaurus !== null) provideThesaurus(thesaurus);
  if (lexicon !== null) provideLexicon(lexicon);
}

/**
 * Reads the word vectors, the tokenizer's ranks, the thesaurus and compromise's lexicon once per
 * isolate (concurrent callers share one load; a failed load is retried by the next
 * caller). Called at the entries that run retrieval or count tokens: the Context's object when
 * it starts, the queue consumer per batch, the MCP route.
 */
export function loadTables(assets: TableFetcher | undefined): Promise<void> {
  if (installed()) return Promise.resolve();
  if (assets === undefined) {
    return Promise.reject(
      new Error('no ASSETS binding: the word vectors and tokenizer ranks are static assets'),
    );
  }
  loading ??= load(assets).catch((err: unknown) => {
    loading = null;
    throw err;
  });
  return loading;
}
