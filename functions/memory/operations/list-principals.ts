import { assertManagement } from '../auth/guards.ts';
import type { AuthContext, PrincipalKind } from '../auth/principal.ts';
import type { OperationDeps } from './deps.ts';
import { decodeIdCursor, pageOf } from './id-cursor.ts';
import { PRINCIPAL_COLUMNS, VISIBLE_TO_TENANT, type PrincipalView } from './principals.ts';

export interface ListPrincipalsInput {
  cursor: string | null;
  limit: number;
  kind: PrincipalKind | null;
}

/**
 * The principals a management key may see (the same rule as a look-up by id, principals.ts):
 * every one for a root key; for a key bound to Context C, those C owns and those holding a key
 * in C.
 */
export async function listPrincipals(
  deps: OperationDeps,
  auth: AuthContext,
  input: ListPrincipalsInput,
): Promise<{ principals: PrincipalView[]; next_cursor: string | null }> {
  assertManagement(auth);
  const where = ['p.id > ?1'];
  const params: (string | number | null)[] = [
    input.cursor === null ? '' : decodeIdCursor(input.cursor),
    auth.key.contextId,
    input.kind,
    input.limit + 1,
  ];
  if (auth.key.contextId !== null) where.push(VISIBLE_TO_TENANT);
  if (input.kind !== null) where.push('p.kind = ?3');
  const { results } = await deps.db
    .prepare(
      `SELECT ${PRINCIPAL_COLUMNS} FROM principals p WHERE ${where.join(' AND ')} ORDER BY p.id LIMIT ?4`,
    )
    .bind(...params)
    .all<PrincipalView>();
  const page = pageOf(results, input.limit);
  return { principals: page.rows, next_cursor: page.next_cursor };
}
