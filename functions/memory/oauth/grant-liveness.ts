import { OAUTH_KEY_PREFIX, type AuthContext } from '../auth/principal.ts';
import { MemoryError } from '../errors.ts';

/**
 * An OAuth token is only as good as the key it was granted from: revoking that key (or deleting
 * it) stops the token at its next call instead of at its expiry. The bootstrap key has no row.
 */
export async function assertGrantLive(env: Env, auth: AuthContext): Promise<void> {
  const keyId = auth.key.keyId.startsWith(OAUTH_KEY_PREFIX)
    ? auth.key.keyId.slice(OAUTH_KEY_PREFIX.length)
    : auth.key.keyId;
  if (keyId === 'bootstrap') return;
  const row = await env.DB.prepare('SELECT revoked_at FROM api_keys WHERE id = ?')
    .bind(keyId)
    .first<{ revoked_at: string | null }>();
  if (!row || row.revoked_at !== null) {
    throw new MemoryError({
      kind: 'unauthorized',
      detail: 'the API key this OAuth grant was made from has been revoked',
    });
  }
}
