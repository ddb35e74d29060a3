import { createDeps } from '../operations/create-deps.ts';
import type { Embedder } from '../retrieval/embedder.ts';

/**
 * The embedder chunks are indexed with: the same wiring the query path uses (operations/deps.ts),
 * or vector search would find nothing (vectors of different model ids are never compared).
 */
export function documentEmbedder(env: Env): Embedder {
  return createDeps(env).embedder;
}
