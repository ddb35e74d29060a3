import type { AuthContext } from '../auth/principal.ts';
import { failure, unwrap } from '../errors.ts';
import { lensFromGrant } from '../scopes/lens.ts';
import type { EntityCursor, EntitySummary } from '../store/entity-browse.ts';
import type { ItemRecord } from '../store/types.ts';
import { requireContext } from './contexts.ts';
import type { OperationDeps } from './deps.ts';

/**
 * The entities the write paths recognised in items (store/entities.ts), as a reader browses them:
 * only entities that some current item inside the key's read grant mentions exist for that key.
 */

/** How many mentioning items an entity look-up returns at most. */
export const MAX_ENTITY_ITEMS = 100;

// A cursor is `e<id>` (the page goes on after entity <id>; the only form before pages had a
// budget) or `r<id>.<seq>` (it goes on inside entity <id>, at its items older than <seq>).
export function encodeEntityCursor(next: EntityCursor): string {
  const text = next.before === null ? `e${next.start - 1}` : `r${next.start}.${next.before}`;
  return btoa(text).replace(/=+$/, '');
}

export function decodeEntityCursor(cursor: string): EntityCursor {
  try {
    const match = /^(?:e(\d{1,15})|r(\d{1,15})\.(\d{1,15}))$/.exec(atob(cursor));
    if (match?.[1] !== undefined) return { start: Number(match[1]) + 1, before: null };
    if (match?.[2] !== undefined && match[3] !== undefined)
      return { start: Number(match[2]), before: Number(match[3]) };
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
  entities: EntitySummary[];
  next_cursor: string | null;
}> {
  await requireContext(deps, auth, input.contextId);
  const page = await deps.store(input.contextId).entityPage({
    lens: lensFromGrant(auth.key.grants['memory:read']),
    from: input.cursor === null ? { start: 0, before: null } : decodeEntityCursor(input.cursor),
    limit: input.limit,
    prefix: input.prefix,
  });
  return {
    entities: page.entities,
    next_cursor: page.next === null ? null : encodeEntityCursor(page.next),
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
