import type { RequestSpec } from './transport.ts';
import type {
  ApiKey,
  Context,
  ContextPage,
  KeyGrants,
  KeyPage,
  Principal,
  PrincipalPage,
  WhoAmI,
} from './types.ts';

/**
 * The management half of `MemoryClient` (management key, except `whoAmI`): Contexts, principals,
 * keys, backups and the schema rollout. `MemoryClient` extends it with the memory of one Context
 * and supplies the three requests below; callers only ever see `MemoryClient`.
 */
export abstract class ManagementMethods {
  /** A JSON request (undefined for 204). */
  protected abstract call<T>(spec: RequestSpec): Promise<T>;
  /** The raw response of a request (NDJSON and bytes). */
  protected abstract send(spec: RequestSpec): Promise<Response>;
  /** The client's Context id, or a MemoryError when none was given. */
  protected abstract requireContext(): string;

  createContext(
    id: string,
    options: { tokenLimit?: number; namespace?: string } = {},
  ): Promise<Context> {
    const json = { id, token_limit: options.tokenLimit, namespace: options.namespace };
    return this.call({ method: 'POST', path: '/api/v1/contexts', json, retryable: false });
  }

  /** The Contexts this management key administers, a page at a time (no usage counts). */
  listContexts(page: { cursor?: string; limit?: number } = {}): Promise<ContextPage> {
    const query = { cursor: page.cursor, limit: page.limit };
    return this.call({ method: 'GET', path: '/api/v1/contexts', query, retryable: true });
  }

  /** The calling key: principal, Context, grants, scope floor, read lens (any key). */
  whoAmI(): Promise<WhoAmI> {
    return this.call({ method: 'GET', path: '/api/v1/whoami', retryable: true });
  }

  getContext(id = this.requireContext()): Promise<Context> {
    return this.call({ method: 'GET', path: `/api/v1/contexts/${enc(id)}`, retryable: true });
  }

  updateContext(
    id: string,
    patch: {
      token_limit?: number | null;
      enforcement_blocked?: boolean;
      namespace?: string | null;
      /** Per-file upload limit in bytes (1..1 GiB); null returns to the deployment default. */
      max_upload_bytes?: number | null;
    },
  ): Promise<Context> {
    const path = `/api/v1/contexts/${enc(id)}`;
    return this.call({ method: 'PATCH', path, json: patch, retryable: false });
  }

  deleteContext(id: string): Promise<void> {
    return this.call({ method: 'DELETE', path: `/api/v1/contexts/${enc(id)}`, retryable: true });
  }

  createPrincipal(principal: {
    kind: Principal['kind'];
    display_name: string;
    external_id?: string;
  }): Promise<Principal> {
    return this.call({
      method: 'POST',
      path: '/api/v1/principals',
      json: principal,
      retryable: false,
    });
  }

  createKey(key: {
    principal_id: string;
    context_id: string;
    grants: KeyGrants;
    scope_floor?: string;
  }): Promise<ApiKey> {
    return this.call({ method: 'POST', path: '/api/v1/keys', json: key, retryable: false });
  }

  /** Keys this management key manages, never with secrets (management key). */
  listKeys(
    options: {
      cursor?: string;
      limit?: number;
      contextId?: string;
      principalId?: string;
      includeRevoked?: boolean;
    } = {},
  ): Promise<KeyPage> {
    const query = {
      cursor: options.cursor,
      limit: options.limit,
      context_id: options.contextId,
      principal_id: options.principalId,
      include_revoked: options.includeRevoked,
    };
    return this.call({ method: 'GET', path: '/api/v1/keys', query, retryable: true });
  }

  /** Principals of the caller's tenant (management key). */
  listPrincipals(
    options: { cursor?: string; limit?: number; kind?: Principal['kind'] } = {},
  ): Promise<PrincipalPage> {
    const query = { cursor: options.cursor, limit: options.limit, kind: options.kind };
    return this.call({ method: 'GET', path: '/api/v1/principals', query, retryable: true });
  }

  getPrincipal(id: string): Promise<Principal> {
    return this.call({ method: 'GET', path: `/api/v1/principals/${enc(id)}`, retryable: true });
  }

  revokeKey(id: string): Promise<void> {
    return this.call({ method: 'DELETE', path: `/api/v1/keys/${enc(id)}`, retryable: true });
  }

  /** Changes a key's grants or scope floor; effective on its next request (management key). */
  updateKey(
    id: string,
    change: { grants?: KeyGrants; scope_floor?: string | null },
  ): Promise<Omit<ApiKey, 'key'>> {
    return this.call({
      method: 'PATCH',
      path: `/api/v1/keys/${enc(id)}`,
      json: change,
      retryable: true,
    });
  }

  /** Deletes a principal and its keys; they are refused from the next request on. */
  deletePrincipal(id: string): Promise<void> {
    return this.call({
      method: 'DELETE',
      path: `/api/v1/principals/${enc(id)}`,
      retryable: true,
    });
  }

  /** The whole Context database as NDJSON, for backups (management key). */
  async exportContext(id = this.requireContext()): Promise<string> {
    const path = `/api/v1/contexts/${enc(id)}/export`;
    const res = await this.send({ method: 'GET', path, retryable: true });
    return res.text();
  }

  /** Replays an `exportContext` NDJSON into a Context (management key). */
  importContext(id: string, ndjson: string): Promise<Record<string, unknown>> {
    return this.call({
      method: 'POST',
      path: `/api/v1/contexts/${enc(id)}/import`,
      body: ndjson,
      headers: { 'content-type': 'application/x-ndjson' },
      retryable: false,
    });
  }

  /** A document's file named by an export's blob line, as bytes (management key). */
  async exportContextBlob(id: string, sha256: string): Promise<Uint8Array<ArrayBuffer>> {
    const path = `/api/v1/contexts/${enc(id)}/export/blobs/${enc(sha256)}`;
    const res = await this.send({ method: 'GET', path, retryable: true });
    return new Uint8Array(await res.arrayBuffer());
  }

  /** Puts a document's file back for an imported Context; the server checks its sha256. */
  importContextBlob(
    id: string,
    sha256: string,
    bytes: Uint8Array<ArrayBuffer>,
  ): Promise<{ sha256: string; size_bytes: number; restored: boolean }> {
    return this.call({
      method: 'PUT',
      path: `/api/v1/contexts/${enc(id)}/import/blobs/${enc(sha256)}`,
      body: bytes,
      headers: { 'content-type': 'application/octet-stream' },
      retryable: true,
    });
  }

  retryDeadLetter(id: string): Promise<Record<string, unknown>> {
    const path = `/api/v1/migrations/dlq/${enc(id)}/retry`;
    return this.call({ method: 'POST', path, retryable: false });
  }

  migrations(): Promise<Record<string, unknown>> {
    return this.call({ method: 'GET', path: '/api/v1/migrations', retryable: true });
  }
}

function enc(segment: string): string {
  return encodeURIComponent(segment);
}
