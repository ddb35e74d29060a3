import { installO200k, o200kInstalled, type MergeRanks } from '../models/o200k-tokenizer.ts';
import { compromiseInstalled, installCompromise } from '../retrieval/lexicon.ts';
import { installThesaurus, thesaurusInstalled } from '../retrieval/synonyms.ts';
import { installWordVectors, wordVectorsInstalled } from '../retrieval/word-vector-table.ts';

/**
 * Where the build puts the read-only tables (scripts/table-assets.ts): static assets of the
 * Worker, read through its `ASSETS` binding, so that they count against no script-size limit.
 */
export const TABLE_ASSETS = {
  wordVectors: '/_engram/tables/word-vectors.bin',
  o200k: '/_engram/tables/o200k_base.json',
} as const;

/** What the tables are read through: the `ASSETS` binding (or a stand-in in tests). */
export interface TableFetcher {
  fetch(input: string): Promise<Response>;
}

// Any origin: the assets binding resolves the path only.
const ORIGIN = 'https://assets.invalid';

let loading: Promise<void> | null = null;

async function read(assets: TableFetcher, path: string): Promise<Response> {
  const res = await assets.fetch(`${ORIGIN}${path}`);
  if (!res.ok) {
    throw new Error(
      `the table asset ${path} answered ${res.status}: run \`npm run build\` (it writes dist${path}) before starting or deploying the Worker`,
    );
  }
  return res;
}

function installed(): boolean {
  return (
    wordVectorsInstalled() && o200kInstalled() && compromiseInstalled() && thesaurusInstalled()
  );
}

async function load(assets: TableFetcher): Promise<void> {
  const [vectors, ranks, nlp, thesaurus] = await Promise.all([
    wordVectorsInstalled()
      ? null
      : read(assets, TABLE_ASSETS.wordVectors).then((r) => r.arrayBuffer()),
    o200kInstalled() ? null : read(assets, TABLE_ASSETS.o200k).then((r) => r.json<MergeRanks>()),
    // Dynamic imports: the bundle keeps these in the script but evaluates them (compromise
    // unpacks its lexicon, the thesaurus is one large object literal) only here, on first load.
    compromiseInstalled() ? null : import('compromise/two'),
    thesaurusInstalled() ? null : import('synonyms/dictionary.js'),
  ]);
  if (vectors !== null) installWordVectors(new Uint8Array(vectors));
  if (ranks !== null) installO200k(ranks);
  if (nlp !== null) installCompromise(nlp.default);
  if (thesaurus !== null) installThesaurus(thesaurus.default);
}

/**
 * Loads the word vectors, the tokenizer's ranks, compromise and the thesaurus once per isolate
 * (concurrent callers share one load; a failed load is retried by the next caller). Called at
 * the entries that run retrieval or count tokens: the Context's object when it starts, the queue
 * consumer per batch.
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
