// The store's own cost, without the HTTP hop, auth or RPC: the functions the `ContextStore` object
// runs for `POST /facts/batch` (embed in the Worker, then `insertItems` in one transaction) and for
// `POST /query` (`plannedSearch`), over an in-memory SQLite in this Node process, against Orama in
// the same process on the same corpus, vectors and queries. The like-for-like half of the memory
// benchmark: both sides are in-process indexes.
import { embedSif, SIF_MODEL_ID } from '../../functions/memory/retrieval/sif-embeddings.ts';
import { insertItems } from '../../functions/memory/store/items.ts';
import { applyMigrations } from '../../functions/memory/store/schema/runner.ts';
import { plannedSearch } from '../../functions/memory/store/search.ts';
import type {
  ItemRecord,
  NewItem,
  SearchHit,
  SearchMode,
  SearchRequest,
} from '../../functions/memory/store/types.ts';
import { VectorCache } from '../../functions/memory/store/vectors.ts';
import { nodeStorage } from '../../test/support/node-sql-storage.ts';

/** One Context's database in this process: the object's write and query functions, no HTTP. */
export interface InProcessContext {
  /** Inserts `items` in one transaction, as `POST /facts/batch` does; their records in order. */
  insert(items: NewItem[]): ItemRecord[];
  /** One query as the object answers it (`plannedSearch`; the caller brings the query vector). */
  search(req: SearchRequest): SearchHit[];
}

export function inProcessContext(): InProcessContext {
  const storage = nodeStorage();
  applyMigrations(storage as unknown as DurableObjectStorage);
  const cache = new VectorCache();
  return {
    insert(items) {
      const now = new Date().toISOString();
      return storage.transactionSync(() => insertItems(storage.sql, cache, items, now));
    },
    search(req) {
      return plannedSearch(storage.sql, cache, req).hits;
    },
  };
}

export interface InProcessStore {
  /** Embeds and inserts `contents` in batches of `batch`, one transaction each; elapsed ms. */
  ingest(contents: string[], batch: number): number;
  /** One query as the object answers it (query embedding included). */
  query(text: string, mode: SearchMode, k: number): SearchHit[];
}

export function inProcessStore(): InProcessStore {
  const context = inProcessContext();
  return {
    ingest(contents, batch) {
      const start = performance.now();
      for (let i = 0; i < contents.length; i += batch) {
        context.insert(
          contents.slice(i, i + batch).map((content) => ({
            kind: 'fact',
            content,
            scopes: [],
            metadata: null,
            sessionId: null,
            sourceId: null,
            vector: { modelId: SIF_MODEL_ID, values: embedSif(content) },
          })),
        );
      }
      return performance.now() - start;
    },
    query(text, mode, k) {
      const vector = mode === 'bm25' ? null : { modelId: SIF_MODEL_ID, values: embedSif(text) };
      return context.search({ mode, text, vector, k, lens: [['*']] });
    },
  };
}
