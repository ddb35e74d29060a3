import type { AuthContext } from '../auth/principal.ts';
import { failure, unwrap } from '../errors.ts';
import { lensFromGrant } from '../scopes/lens.ts';
import type { EntitySummary } from '../store/memory-browse.ts';
import type { ItemRecord } from '../store/types.ts';
import { requireContext } from './contexts.ts';
import type { OperationDeps } from './deps.ts';

/**
 * The entities the write paths recognised in items (store/entities.ts), as a reader browses them:
 * only entities that some current item inside the key's read grant mentions exist for that key.
 */

/** How many mentioning items an entity look-up returns at most. */
export const MAX_ENTITY_ITEMS = 100;

function encodeCursor(after: number): string {
  return btoa(`e${after}`).replace(/=+$/, '');
}

function decodeCursor(cursor: string): number {
  try {
    const text = atob(cursor);
    const n = Number.parseInt(text.slice(1), 10);
    if (text.startsWith('e') && Number.isSafeInteger(n) && n >= 0) return n;
  } catch {
    // reported below
  }
  throw failure('validation-error', 'cursor: not a cursor returned by this operation');
}

/** Entities mentioned by current facts the key may read, in first-seen order, with a cursor. */
export async function listEntities(
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; prefix: string | null; limit: number; cursor: string | null },
): Promise<{
  entities: Array<{ name: string; display: string; items: number }>;
  next_cursor: string | null;
}> {
  await requireContext(deps, auth, input.contextId);
  const page = await deps.store(input.contextId).entityPage({
    lens: lensFromGrant(auth.key.grants['memory:read']),
    after: input.cursor === null ? 0 : decodeCursor(input.cursor),
    limit: input.limit,
    prefix: input.prefix,
  });
  return {
    entities: page.entities,
    next_cursor: page.next === null ? null : encodeCursor(page.next),
  };
}

/** One entity by name, with the current items inside the read grant that mention it. */
export async function getEntity(
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; name: string; limit: number },
): Promise<{ entity: EntitySummary; items: ItemRecord[] }> {
  await requireContext(deps, auth, input.contextId);
  return unwrap(
    await deps.store(input.contextId).entityDetail({
      lens: lensFromGrant(auth.key.grants['memory:read']),
      name: input.name,
      limit: Math.min(input.limit, MAX_ENTITY_ITEMS),
    }),
  );
}
