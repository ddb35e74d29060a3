import type { AuthContext } from '../auth/principal.ts';
import { failure, unwrap } from '../errors.ts';
import { itemWithinGrant } from '../scopes/grants.ts';
import { lensFromGrant, lensMatches } from '../scopes/lens.ts';
import type { DocumentRecord } from '../store/documents-table.ts';
import { requireContext } from './contexts.ts';
import type { OperationDeps } from './deps.ts';

const ID_PATTERN = /^doc_[A-Za-z0-9]{1,64}$/;

/** Accepts both `document:<id>` and the bare `<id>`. */
export function bareDocumentId(id: string): string {
  const bare = id.startsWith('document:') ? id.slice('document:'.length) : id;
  if (!ID_PATTERN.test(bare)) throw failure('not-found', `no document ${id} in this Context`);
  return bare;
}

/** A document the key may read; one outside its read grant is 404, exactly like a missing one. */
export async function getDocument(
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; id: string },
): Promise<DocumentRecord> {
  await requireContext(deps, auth, input.contextId);
  const doc = unwrap(await deps.store(input.contextId).getDocument(bareDocumentId(input.id)));
  if (!lensMatches(lensFromGrant(auth.key.grants['memory:read']), doc.scopes)) {
    throw failure('not-found', `no document ${input.id} in this Context`);
  }
  return doc;
}

function encodeCursor(id: string): string {
  return btoa(id).replace(/=+$/, '');
}

function decodeCursor(cursor: string): string {
  try {
    const id = atob(cursor);
    if (ID_PATTERN.test(id)) return id;
  } catch {
    // reported below
  }
  throw failure('validation-error', 'cursor: not a cursor returned by this endpoint');
}

export async function listDocuments(
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; limit: number; cursor: string | null },
): Promise<{ documents: DocumentRecord[]; next_cursor: string | null }> {
  await requireContext(deps, auth, input.contextId);
  const page = unwrap(
    await deps.store(input.contextId).listDocuments({
      lens: lensFromGrant(auth.key.grants['memory:read']),
      after: input.cursor === null ? null : decodeCursor(input.cursor),
      limit: input.limit,
    }),
  );
  return {
    documents: page.documents,
    next_cursor: page.next === null ? null : encodeCursor(page.next),
  };
}

/** Deletes the document, its chunks from every index, and its blob. */
export async function deleteDocument(
  deps: OperationDeps,
  auth: AuthContext,
  input: { contextId: string; id: string },
): Promise<void> {
  const doc = await getDocument(deps, auth, input);
  if (!itemWithinGrant(auth.key, 'memory:forget', doc.scopes)) {
    throw failure(
      'forbidden',
      `document ${doc.id} has scopes outside this key's memory:forget grant`,
    );
  }
  const blobKey = unwrap(
    await deps.store(input.contextId).deleteDocument(bareDocumentId(input.id)),
  );
  // A Context restored from another's export still points at the original's blobs: those are
  // not this Context's to delete.
  if (blobKey !== null && blobKey.startsWith(`documents/${input.contextId}/`)) {
    await deps.env.BLOBS.delete(blobKey);
  }
}
