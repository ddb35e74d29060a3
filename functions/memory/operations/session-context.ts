import type { AuthContext } from '../auth/principal.ts';
import { unwrap } from '../errors.ts';
import { buildContextBlock, type ContextBlock } from './context-block.ts';
import { requireContext } from './contexts.ts';
import type { OperationDeps } from './deps.ts';
import { cached, cacheKey, remember } from './response-cache.ts';
import { sessionLens } from './session-lens.ts';

/**
 * `GET /sessions/{id}/context`: the session's prompt-ready context (its recent turns and the
 * memory most relevant to its last user turn), cached until the next write to the Context.
 */
export async function sessionContext(
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; sessionId: string; max_tokens?: number | undefined },
): Promise<ContextBlock & { session_id: string; cached: boolean }> {
  await requireContext(deps, auth, input.contextId);
  const store = deps.store(input.contextId);
  unwrap(await store.getSession(input.sessionId, sessionLens(auth)));
  const key = await cacheKey({
    op: 'session-context',
    session: input.sessionId,
    max_tokens: input.max_tokens ?? null,
    grant: auth.key.grants['memory:read'],
  });
  const hit = await cached<ContextBlock>(store, key);
  if (hit) return { ...hit, session_id: input.sessionId, cached: true };
  const last = unwrap(
    await store.listTurns({
      sessionId: input.sessionId,
      lens: sessionLens(auth),
      limit: 5,
      offset: 0,
      newestFirst: true,
    }),
  ).turns.find((t) => t.role === 'user');
  const block = await buildContextBlock(deps, auth, {
    contextId: input.contextId,
    session_id: input.sessionId,
    query: last?.content,
    max_tokens: input.max_tokens,
  });
  await remember(store, key, block);
  return { ...block, session_id: input.sessionId, cached: false };
}
