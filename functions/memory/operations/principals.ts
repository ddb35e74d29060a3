import { assertManagement } from '../auth/guards.ts';
import type { AuthContext, PrincipalKind } from '../auth/principal.ts';
import { failure } from '../errors.ts';
import { newId } from '../store/ids.ts';
import type { OperationDeps } from './deps.ts';

export interface PrincipalView {
  id: string;
  kind: PrincipalKind;
  display_name: string;
  external_id: string | null;
  created_at: string;
}

export interface CreatePrincipalInput {
  kind: PrincipalKind;
  display_name: string;
  external_id?: string | undefined;
}

/** Create, or get by `external_id`: `created` tells the route whether to answer 201 or 200. */
export async function createPrincipal(
  deps: OperationDeps,
  auth: AuthContext,
  input: CreatePrincipalInput,
): Promise<{ created: boolean; principal: PrincipalView }> {
  assertManagement(auth);
  if (input.external_id !== undefined) {
    const existing = await deps.db
      .prepare(
        'SELECT id, kind, display_name, external_id, created_at FROM principals WHERE external_id = ?',
      )
      .bind(input.external_id)
      .first<PrincipalView>();
    if (existing) return { created: false, principal: existing };
  }
  const principal: PrincipalView = {
    id: newId('principal'),
    kind: input.kind,
    display_name: input.display_name,
    external_id: input.external_id ?? null,
    created_at: new Date().toISOString(),
  };
  const result = await deps.db
    .prepare(
      `INSERT INTO principals (id, kind, display_name, external_id, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT DO NOTHING`,
    )
    .bind(
      principal.id,
      principal.kind,
      principal.display_name,
      principal.external_id,
      principal.created_at,
    )
    .run();
  if (result.meta.changes === 0) {
    // Lost a race on external_id, or the display name is taken.
    if (input.external_id !== undefined) {
      const raced = await deps.db
        .prepare(
          'SELECT id, kind, display_name, external_id, created_at FROM principals WHERE external_id = ?',
        )
        .bind(input.external_id)
        .first<PrincipalView>();
      if (raced) return { created: false, principal: raced };
    }
    throw failure('conflict', `a principal named "${input.display_name}" already exists`);
  }
  return { created: true, principal };
}

export async function getPrincipal(
  deps: OperationDeps,
  auth: AuthContext,
  id: string,
): Promise<PrincipalView> {
  assertManagement(auth);
  const row = await deps.db
    .prepare('SELECT id, kind, display_name, external_id, created_at FROM principals WHERE id = ?')
    .bind(id)
    .first<PrincipalView>();
  if (!row) throw failure('not-found', `principal ${id} does not exist`);
  return row;
}
