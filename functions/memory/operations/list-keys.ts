import { assertContextAccess, assertManagement } from '../auth/guards.ts';
import type { AuthContext } from '../auth/principal.ts';
import type { OperationDeps } from './deps.ts';
import { decodeIdCursor, pageOf } from './id-cursor.ts';
import { KEY_VIEW_SELECT, keyViewOf, type KeyView, type KeyViewRow } from './keys.ts';

export interface ListKeysInput {
  cursor: string | null;
  limit: number;
  /** Only keys bound to this Context. */
  contextId: string | null;
  /** Only keys of this principal. */
  principalId: string | null;
  /** Also list revoked keys (left out by default: they no longer open anything). */
  includeRevoked: boolean;
}

/**
 * The keys a management key may manage, by id, never with a secret or its hash: every key for
 * a root key; for a key bound to Context C, the keys bound to C (asking for another Context is
 * 403, as issuing a key there would be).
 */
export async function listKeys(
  deps: OperationDeps,
  auth: AuthContext,
  input: ListKeysInput,
): Promise<{ keys: KeyView[]; next_cursor: string | null }> {
  assertManagement(auth);
  if (input.contextId !== null) assertContextAccess(auth, input.contextId);
  const context = input.contextId ?? auth.key.contextId;
  const where = ['k.id > ?'];
  const params: (string | number)[] = [input.cursor === null ? '' : decodeIdCursor(input.cursor)];
  if (context !== null) {
    where.push('k.context_id = ?');
    params.push(context);
  }
  if (input.principalId !== null) {
    where.push('k.principal_id = ?');
    params.push(input.principalId);
  }
  if (!input.includeRevoked) where.push('k.revoked_at IS NULL');
  const { results } = await deps.db
    .prepare(`${KEY_VIEW_SELECT} WHERE ${where.join(' AND ')} ORDER BY k.id LIMIT ?`)
    .bind(...params, input.limit + 1)
    .all<KeyViewRow>();
  const page = pageOf(results, input.limit);
  return { keys: page.rows.map(keyViewOf), next_cursor: page.next_cursor };
}
