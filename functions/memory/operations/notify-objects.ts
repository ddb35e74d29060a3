import { accessHooks } from '../access/access-hooks.ts';
import type { ContextRow } from './context-row.ts';
import type { OperationDeps } from './deps.ts';

/**
 * After a control-plane write to keys (revoke, grant change, principal deleted) has reached D1:
 * tells every Context object that cached one of them (`key_cache_sites`, written when the object
 * first read the key) to forget it, so that the next request with it reads D1 again. An unbound
 * management key may sit in many objects: they are told in parallel.
 */
export async function forgetKeysEverywhere(
  deps: OperationDeps,
  keyIds: readonly string[],
): Promise<void> {
  if (keyIds.length === 0) return;
  const { results } = await deps.db
    .prepare(
      `SELECT DISTINCT context_id FROM key_cache_sites
        WHERE key_id IN (SELECT value FROM json_each(?))`,
    )
    .bind(JSON.stringify(keyIds))
    .all<{ context_id: string }>();
  await Promise.all(
    results.map((r) => accessHooks(deps.env, r.context_id).forgetKeys([...keyIds])),
  );
}

/** After `PATCH /contexts/{id}`: the Context's object gets the new row (settings, limits). */
export async function refreshContextObject(deps: OperationDeps, row: ContextRow): Promise<void> {
  await accessHooks(deps.env, row.id).refreshContextRow(row);
}

/** After `DELETE /contexts/{id}` reached D1: a request racing the deletion leaves nothing cached. */
export async function forgetContextObject(deps: OperationDeps, contextId: string): Promise<void> {
  await accessHooks(deps.env, contextId).forgetContext();
}
