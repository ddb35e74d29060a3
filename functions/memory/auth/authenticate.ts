import { MemoryError } from '../errors.ts';
import { constantTimeEqual, hashSecret, parseBearer } from './bearer.ts';
import { BOOTSTRAP_AUTH, KEY_ROW_BY_HASH, type KeyRow } from './key-row.ts';
import type { AuthContext, Grants } from './principal.ts';

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
    if (constantTimeEqual(hash, await hashSecret(bootstrap))) return BOOTSTRAP_AUTH;
  }
  const row = await env.DB.prepare(KEY_ROW_BY_HASH).bind(hash).first<KeyRow>();
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
