import { constantTimeEqual, hashSecret } from '../auth/bearer.ts';
import { BOOTSTRAP_AUTH, KEY_ROW_BY_HASH, type KeyRow } from '../auth/key-row.ts';
import type { AuthContext, Grants } from '../auth/principal.ts';
import { fail, ok, type Result } from '../errors.ts';
import type { ContextRow } from '../operations/contexts.ts';
import type { AccessCache } from './access-cache.ts';
import type { Credential, KeyCredential, KeyEntry } from './access-types.ts';

export interface Access {
  auth: AuthContext;
  context: ContextRow;
}

export interface AccessSources {
  /** The control plane, read only on a cache miss. */
  db: D1Database;
  bootstrapKey: string | undefined;
  cache: AccessCache;
  now: number;
}

function entryOf(row: KeyRow): KeyEntry {
  return {
    keyId: row.id,
    hash: row.hash,
    contextId: row.context_id,
    grants: JSON.parse(row.grants) as Grants,
    scopeFloor: row.scope_floor,
    revoked: row.revoked_at !== null,
    principalId: row.principal_id,
    principalKind: row.principal_kind,
    displayName: row.display_name,
  };
}

/**
 * Whatever the cache lacks, read from D1 in one batch (one round trip): the key with its
 * principal, the Context row, and, for a key seen here for the first time, a `key_cache_sites`
 * row so that a later revocation or grant change reaches this object.
 */
async function fill(
  sources: AccessSources,
  contextId: string,
  hash: string,
  needKey: boolean,
  needContext: boolean,
): Promise<Filled> {
  const { db, cache, now } = sources;
  const readAt = cache.epoch;
  const statements: D1PreparedStatement[] = [];
  if (needKey) {
    statements.push(
      db.prepare(KEY_ROW_BY_HASH).bind(hash),
      db
        .prepare(
          `INSERT OR IGNORE INTO key_cache_sites (key_id, context_id)
             SELECT id, ? FROM api_keys WHERE hash = ? AND EXISTS (SELECT 1 FROM contexts WHERE id = ?)`,
        )
        .bind(contextId, hash, contextId),
    );
  }
  if (needContext)
    statements.push(db.prepare('SELECT * FROM contexts WHERE id = ?').bind(contextId));
  const results = await db.batch(statements);
  const filled: Filled = {};
  if (needKey) {
    const row = (results[0]?.results as KeyRow[] | undefined)?.[0];
    // Looked up by hash; the constant-time compare guards against any index-side shortcut.
    filled.key = row && constantTimeEqual(row.hash, hash) ? entryOf(row) : null;
    cache.rememberKey(hash, filled.key, now, readAt);
  }
  if (needContext) {
    filled.context = (results[needKey ? 2 : 0]?.results as ContextRow[] | undefined)?.[0] ?? null;
    cache.rememberContext(filled.context, now, readAt);
  }
  return filled;
}

/** What a D1 read found (it may not have been kept: see AccessCache.epoch). */
interface Filled {
  key?: KeyEntry | null;
  context?: ContextRow | null;
}

let bootstrapHash: { key: string; hash: string } | null = null;

async function isBootstrap(credential: KeyCredential, bootstrapKey: string | undefined) {
  if (!bootstrapKey || credential.kind !== 'management') return false;
  if (bootstrapHash?.key !== bootstrapKey) {
    bootstrapHash = { key: bootstrapKey, hash: await hashSecret(bootstrapKey) };
  }
  return constantTimeEqual(credential.hash, bootstrapHash.hash);
}

/**
 * The data plane's whole access check, answered by the Context's own object: which principal and
 * grant the credential stands for (401 unknown, revoked or mismatched key), whether the key may
 * touch this Context (403, checked before existence so a key never learns whether another
 * Context exists) and the Context's row (404 when there is none). D1 is read only for what the
 * cache does not hold.
 */
export async function checkAccess(
  sources: AccessSources,
  credential: Credential,
  contextId: string,
): Promise<Result<Access>> {
  if ('oauth' in credential) return checkGrantAccess(sources, credential.oauth, contextId);
  return checkKeyAccess(sources, credential, contextId);
}

/**
 * An OAuth grant the Worker resolved: 403 for another Context (before existence, as for a key),
 * 404 when the Context is gone. Its rate bucket is its own `oauth:<key id>`, as on `/mcp`.
 */
async function checkGrantAccess(
  sources: AccessSources,
  auth: AuthContext,
  contextId: string,
): Promise<Result<Access>> {
  if (auth.key.contextId !== null && auth.key.contextId !== contextId)
    return fail({ kind: 'forbidden', detail: 'this key is not valid for this Context' });
  let context = sources.cache.contextRow(sources.now);
  if (context === undefined) context = (await fill(sources, contextId, '', false, true)).context;
  if (!context)
    return fail({ kind: 'context-not-found', detail: `Context "${contextId}" does not exist` });
  return ok({ auth, context });
}

async function checkKeyAccess(
  sources: AccessSources,
  credential: KeyCredential,
  contextId: string,
): Promise<Result<Access>> {
  const { cache, now } = sources;
  const bootstrap = await isBootstrap(credential, sources.bootstrapKey);
  let entry = bootstrap ? undefined : cache.key(credential.hash, now);
  let context = cache.contextRow(now);
  const needKey = !bootstrap && entry === undefined;
  if (needKey || context === undefined) {
    const filled = await fill(sources, contextId, credential.hash, needKey, context === undefined);
    if (needKey) entry = filled.key;
    if (context === undefined) context = filled.context;
  }
  let auth: AuthContext;
  if (bootstrap) auth = BOOTSTRAP_AUTH;
  else {
    if (!entry) return fail({ kind: 'unauthorized', detail: 'unknown API key' });
    if (entry.revoked) return fail({ kind: 'unauthorized', detail: 'this API key was revoked' });
    if (entry.principalKind !== credential.kind)
      return fail({ kind: 'unauthorized', detail: 'the key kind does not match its principal' });
    auth = {
      principal: {
        id: entry.principalId,
        kind: entry.principalKind,
        displayName: entry.displayName,
      },
      key: {
        keyId: entry.keyId,
        contextId: entry.contextId,
        grants: entry.grants,
        scopeFloor: entry.scopeFloor,
      },
    };
    if (entry.contextId !== null && entry.contextId !== contextId)
      return fail({ kind: 'forbidden', detail: 'this key is not valid for this Context' });
  }
  if (!context)
    return fail({ kind: 'context-not-found', detail: `Context "${contextId}" does not exist` });
  return ok({ auth, context });
}
