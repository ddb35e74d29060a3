import { MemoryError } from '../errors.ts';
import { constantTimeEqual, hashSecret, parseBearer } from './bearer.ts';
import type { AuthContext, Grants } from './principal.ts';
import { ROOT_SCOPE } from '../scopes/path.ts';

interface KeyRow {
  id: string;
  hash: string;
  /** null: an unbound (root) management key. */
  context_id: string | null;
  grants: string;
  scope_floor: string | null;
  revoked_at: string | null;
  principal_id: string;
  principal_kind: string;
  display_name: string;
}

const FULL_GRANTS: Grants = {
  'memory:read': [ROOT_SCOPE],
  'memory:write': [ROOT_SCOPE],
  'memory:forget': [ROOT_SCOPE],
};

function unauthorized(detail: string): MemoryError {
  return new MemoryError({ kind: 'unauthorized', detail });
}

/**
 * Resolves an `Authorization` header to the calling principal and its key grant, or throws 401.
 * Shared by the REST middleware and the MCP server (which reports the same failure as 401 too).
 */
export async function authenticate(
  env: Env,
  header: string | undefined | null,
): Promise<AuthContext> {
  const parsed = parseBearer(header);
  if (!parsed) {
    throw unauthorized(
      header
        ? 'the bearer key is malformed (expected mem_<kind>_<secret>)'
        : 'missing Authorization: Bearer <key>',
    );
  }
  const hash = await hashSecret(parsed.secret);
  const bootstrap = env.MEMORY_BOOTSTRAP_KEY;
  if (bootstrap && parsed.kind === 'management') {
    if (constantTimeEqual(hash, await hashSecret(bootstrap))) {
      return {
        principal: { id: 'bootstrap', kind: 'management', displayName: 'bootstrap' },
        key: { keyId: 'bootstrap', contextId: null, grants: FULL_GRANTS, scopeFloor: null },
      };
    }
  }
  const row = await env.DB.prepare(
    `SELECT k.id, k.hash, k.context_id, k.grants, k.scope_floor, k.revoked_at,
            p.id AS principal_id, p.kind AS principal_kind, p.display_name
       FROM api_keys k JOIN principals p ON p.id = k.principal_id
      WHERE k.hash = ?`,
  )
    .bind(hash)
    .first<KeyRow>();
  // The lookup is by hash; the constant-time compare guards against any index-side shortcut.
  if (!row || !constantTimeEqual(row.hash, hash)) throw unauthorized('unknown API key');
  if (row.revoked_at !== null) throw unauthorized('this API key was revoked');
  if (row.principal_kind !== parsed.kind)
    throw unauthorized('the key kind does not match its principal');
  return {
    principal: { id: row.principal_id, kind: parsed.kind, displayName: row.display_name },
    key: {
      keyId: row.id,
      contextId: row.context_id,
      grants: JSON.parse(row.grants) as Grants,
      scopeFloor: row.scope_floor,
    },
  };
}
