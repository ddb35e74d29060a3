import { resolveLens } from '../auth/guards.ts';
import type { AuthContext } from '../auth/principal.ts';
import { failure, unwrap } from '../errors.ts';
import { itemWithinGrant } from '../scopes/grants.ts';
import { lensFromGrant, lensMatches, type LensInput } from '../scopes/lens.ts';
import type { ItemKind, ItemRecord } from '../store/types.ts';
import { requireContext } from './contexts.ts';
import type { OperationDeps } from './deps.ts';

/** A fact (or any memory item) by id; items outside the key's read grant are 404, not 403. */
export async function getFact(
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; id: string },
): Promise<ItemRecord> {
  await requireContext(deps, auth, input.contextId);
  const readable = lensFromGrant(auth.key.grants['memory:read']);
  const item = unwrap(await deps.store(input.contextId).getItem(input.id, readable));
  if (!lensMatches(readable, item.scopes)) {
    throw failure('not-found', `no item ${input.id} in this Context`);
  }
  return item;
}

function encodeCursor(seq: number): string {
  return btoa(`s${seq}`).replace(/=+$/, '');
}

function decodeCursor(cursor: string): number {
  try {
    const text = atob(cursor);
    const seq = Number.parseInt(text.slice(1), 10);
    if (text.startsWith('s') && Number.isSafeInteger(seq) && seq >= 0) return seq;
  } catch {
    // fall through to the validation error
  }
  throw failure('validation-error', 'cursor: not a cursor returned by this endpoint');
}

export interface ListFactsInput {
  contextId: string;
  cursor: string | null;
  limit: number;
  lens: LensInput | undefined;
  kind: ItemKind | null;
  /** Also list items closed by supersession or merging (history). */
  includeSuperseded?: boolean;
}

/** A page of items in insertion order, inside the lens; `next_cursor` is null on the last page. */
export async function listFacts(
  deps: OperationDeps,
  auth: AuthContext,
  input: ListFactsInput,
): Promise<{ facts: ItemRecord[]; next_cursor: string | null }> {
  const lens = resolveLens(auth, 'memory:read', input.lens);
  await requireContext(deps, auth, input.contextId);
  const after = input.cursor === null ? 0 : decodeCursor(input.cursor);
  const page = await deps.store(input.contextId).listItems({
    kind: input.kind ?? 'fact',
    lens,
    after,
    limit: input.limit,
    excludeSuperseded: !(input.includeSuperseded ?? false),
  });
  return { facts: page.items, next_cursor: page.next === null ? null : encodeCursor(page.next) };
}

/** Forgets a fact or reflection everywhere at once (table, FTS5, vectors, entity edges). */
export async function deleteFact(
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; id: string },
): Promise<void> {
  await requireContext(deps, auth, input.contextId);
  const store = deps.store(input.contextId);
  const item = unwrap(await store.getItem(input.id, lensFromGrant(auth.key.grants['memory:read'])));
  if (
    !lensMatches(lensFromGrant(auth.key.grants['memory:read']), item.scopes) &&
    !itemWithinGrant(auth.key, 'memory:forget', item.scopes)
  ) {
    throw failure('not-found', `no item ${input.id} in this Context`);
  }
  if (!itemWithinGrant(auth.key, 'memory:forget', item.scopes)) {
    throw failure(
      'forbidden',
      `item ${input.id} has scopes outside this key's memory:forget grant`,
    );
  }
  if (item.kind === 'chunk') {
    throw failure(
      'unprocessable',
      'document chunks are removed by deleting their document, not one by one',
    );
  }
  unwrap(await store.deleteItem(input.id));
}
