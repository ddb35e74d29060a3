import type { AuthContext } from '../auth/principal.ts';
import { buildContextBlock, type ContextBlock, type ContextBlockInput } from './context-block.ts';
import { requireContext } from './contexts.ts';
import type { OperationDeps } from './deps.ts';
import { cached, cacheKey, remember } from './response-cache.ts';

/**
 * `POST /api/v1/{ctx}/context`, answered from the Context's response cache when the same request
 * (same query, session, budget and read grant) was built since the last write. The cache's
 * triggers empty it on any write to items, turns or sessions, so a hit is never stale.
 */
export async function cachedContextBlock(
  deps: OperationDeps,
  auth: AuthContext,
  input: ContextBlockInput,
): Promise<ContextBlock & { cached: boolean }> {
  // Authorisation first: a cached answer must never skip the Context and key checks.
  await requireContext(deps, auth, input.contextId);
  const store = deps.store(input.contextId);
  const key = await cacheKey({
    op: 'context-block',
    query: input.query ?? null,
    session: input.session_id ?? null,
    max_tokens: input.max_tokens ?? null,
    grant: auth.key.grants['memory:read'],
  });
  const hit = await cached<ContextBlock>(store, key);
  if (hit) return { ...hit, cached: true };
  const block = await buildContextBlock(deps, auth, input);
  await remember(store, key, block);
  return { ...block, cached: false };
}
