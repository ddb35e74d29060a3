import type { AuthContext } from '../auth/principal.ts';
import { failure, unwrap } from '../errors.ts';
import { itemWithinGrant } from '../scopes/grants.ts';
import { lensFromGrant, lensMatches } from '../scopes/lens.ts';
import type { ItemRecord, JsonObject, NewItem } from '../store/types.ts';
import { requireContext } from './contexts.ts';
import type { OperationDeps } from './deps.ts';
import { getFact } from './facts.ts';
import { assertNotBlocked, checkWriteScopes } from './write-fact.ts';

/**
 * Versioned edits of a fact: an update never overwrites. The new version is written as a new
 * fact that supersedes the old one (closed with `valid_until`, linked in `item_links`), so the
 * history stays readable and the same rule as `?infer=full` and consolidation applies.
 */

export interface UpdateFactInput {
  contextId: string;
  id: string;
  content: string;
  /** New scopes; the old version's scopes when absent. */
  scopes?: string[] | undefined;
  /** New metadata; the old version's metadata when absent. */
  metadata?: JsonObject | undefined;
}

export async function updateFact(
  deps: OperationDeps,
  auth: AuthContext,
  input: UpdateFactInput,
): Promise<{ fact: ItemRecord; replaces: string }> {
  const old = await getFact(deps, auth, input);
  if (old.kind !== 'fact') {
    throw failure('unprocessable', `${input.id} is a ${old.kind}; only facts are updated`);
  }
  if (old.valid_until) {
    throw failure(
      'conflict',
      `fact ${input.id} was already superseded by ${old.superseded_by ?? 'a newer fact'}; update the current version`,
    );
  }
  // Closing the old version is a write over its scopes; the new version is a write over its own.
  if (!itemWithinGrant(auth.key, 'memory:write', old.scopes)) {
    throw failure('forbidden', `fact ${input.id} has scopes outside this key's memory:write grant`);
  }
  const scopes = input.scopes ?? old.scopes;
  const metadata = input.metadata ?? old.metadata;
  checkWriteScopes(auth, [{ content: input.content, scopes, metadata, sessionId: old.session_id }]);
  // The store closes the old version only when the new one keeps all its scopes (validity.ts
  // `mayClose`: its readers must see what replaced it); asked after the write, it would leave the
  // new version stored beside a refusal. Asked here, a refusal stores nothing.
  const dropped = old.scopes.filter((scope) => !scopes.includes(scope));
  if (dropped.length > 0) {
    throw failure(
      'unprocessable',
      `scopes: a new version keeps every scope of the one it replaces, so that whoever read it reads the new one; missing: ${dropped.join(', ')}. Add scopes, or write a new fact and forget this one`,
    );
  }
  const context = await requireContext(deps, auth, input.contextId);
  assertNotBlocked(context);
  const store = deps.store(input.contextId);
  unwrap(await store.modelReady());
  const [values] = await deps.embedder.embed([input.content]);
  const item: NewItem = {
    kind: 'fact',
    content: input.content,
    scopes,
    metadata,
    sessionId: old.session_id,
    sourceId: null,
    vector: values ? { modelId: deps.embedder.modelId, values } : null,
  };
  const [applied] = await store.modelApplyFactChanges(
    [{ action: 'supersede', item, target: old.id, reason: `updated by ${auth.principal.id}` }],
    auth.key.grants['memory:write'],
  );
  if (!applied || applied.replaces !== old.id) {
    // Another writer closed the fact between the read and the write.
    throw failure('conflict', `fact ${input.id} changed while it was being updated; retry`);
  }
  return { fact: { ...applied.fact, superseded_by: null }, replaces: old.id };
}

/**
 * Every version of a fact the key may read, oldest first. Versions outside the read grant are
 * left out; the fact asked for must itself be readable (404 otherwise, as for `getFact`).
 */
export async function factHistory(
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; id: string },
): Promise<{ id: string; versions: ItemRecord[] }> {
  await getFact(deps, auth, input);
  const lens = lensFromGrant(auth.key.grants['memory:read']);
  const versions = unwrap(await deps.store(input.contextId).itemHistory(input.id, lens));
  return { id: input.id, versions: versions.filter((v) => lensMatches(lens, v.scopes)) };
}
