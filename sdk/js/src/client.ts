import { pollDocument, uploadForm } from './documents.ts';
import { MemoryError } from './errors.ts';
import type {
  BatchFact,
  MemoryClientOptions,
  RememberOptions,
  UploadOptions,
  WaitOptions,
} from './options.ts';
import { readEvents } from './sse.ts';
import { Transport, type RequestSpec } from './transport.ts';
import type {
  ApiKey,
  ChatEvent,
  ChatResponse,
  Context,
  ContextBlock,
  ContextPage,
  DocumentState,
  EntityDetail,
  EntityPage,
  Fact,
  FactHistory,
  FactUpdate,
  KeyGrants,
  KeyPage,
  DocumentPage,
  FactPage,
  Lens,
  Principal,
  PrincipalPage,
  QueryMode,
  QueryResponse,
  Session,
  SessionList,
  Turn,
  TurnPage,
  WhoAmI,
} from './types.ts';

/** Client for the memory service's REST API (`/api/v1`). */
export class MemoryClient {
  readonly #transport: Transport;
  readonly #options: MemoryClientOptions;

  constructor(options: MemoryClientOptions) {
    this.#options = options;
    this.#transport = new Transport(options);
  }

  /** The same client working in another Context. */
  withContext(contextId: string): MemoryClient {
    return new MemoryClient({ ...this.#options, contextId });
  }

  get contextId(): string | undefined {
    return this.#options.contextId;
  }

  // --- management (management key) -------------------------------------------------------

  createContext(
    id: string,
    options: { tokenLimit?: number; namespace?: string } = {},
  ): Promise<Context> {
    const json = { id, token_limit: options.tokenLimit, namespace: options.namespace };
    return this.#call({ method: 'POST', path: '/api/v1/contexts', json, retryable: false });
  }

  /** The Contexts this management key administers, a page at a time (no usage counts). */
  listContexts(page: { cursor?: string; limit?: number } = {}): Promise<ContextPage> {
    const query = { cursor: page.cursor, limit: page.limit };
    return this.#call({ method: 'GET', path: '/api/v1/contexts', query, retryable: true });
  }

  /** The calling key: principal, Context, grants, scope floor, read lens (any key). */
  whoAmI(): Promise<WhoAmI> {
    return this.#call({ method: 'GET', path: '/api/v1/whoami', retryable: true });
  }

  getContext(id = this.#ctx()): Promise<Context> {
    return this.#call({ method: 'GET', path: `/api/v1/contexts/${enc(id)}`, retryable: true });
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
    return this.#call({ method: 'PATCH', path, json: patch, retryable: false });
  }

  deleteContext(id: string): Promise<void> {
    return this.#call({ method: 'DELETE', path: `/api/v1/contexts/${enc(id)}`, retryable: true });
  }

  createPrincipal(principal: {
    kind: Principal['kind'];
    display_name: string;
    external_id?: string;
  }): Promise<Principal> {
    return this.#call({
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
    return this.#call({ method: 'POST', path: '/api/v1/keys', json: key, retryable: false });
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
    return this.#call({ method: 'GET', path: '/api/v1/keys', query, retryable: true });
  }

  /** Principals of the caller's tenant (management key). */
  listPrincipals(
    options: { cursor?: string; limit?: number; kind?: Principal['kind'] } = {},
  ): Promise<PrincipalPage> {
    const query = { cursor: options.cursor, limit: options.limit, kind: options.kind };
    return this.#call({ method: 'GET', path: '/api/v1/principals', query, retryable: true });
  }

  getPrincipal(id: string): Promise<Principal> {
    return this.#call({ method: 'GET', path: `/api/v1/principals/${enc(id)}`, retryable: true });
  }

  revokeKey(id: string): Promise<void> {
    return this.#call({ method: 'DELETE', path: `/api/v1/keys/${enc(id)}`, retryable: true });
  }

  /** Changes a key's grants or scope floor; effective on its next request (management key). */
  updateKey(
    id: string,
    change: { grants?: KeyGrants; scope_floor?: string | null },
  ): Promise<Omit<ApiKey, 'key'>> {
    return this.#call({
      method: 'PATCH',
      path: `/api/v1/keys/${enc(id)}`,
      json: change,
      retryable: true,
    });
  }

  /** Deletes a principal and its keys; they are refused from the next request on. */
  deletePrincipal(id: string): Promise<void> {
    return this.#call({
      method: 'DELETE',
      path: `/api/v1/principals/${enc(id)}`,
      retryable: true,
    });
  }

  /** The whole Context database as NDJSON, for backups (management key). */
  async exportContext(id = this.#ctx()): Promise<string> {
    const path = `/api/v1/contexts/${enc(id)}/export`;
    const res = await this.#transport.send({ method: 'GET', path, retryable: true });
    return res.text();
  }

  /** Replays an `exportContext` NDJSON into a Context (management key). */
  importContext(id: string, ndjson: string): Promise<Record<string, unknown>> {
    return this.#call({
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
    const res = await this.#transport.send({ method: 'GET', path, retryable: true });
    return new Uint8Array(await res.arrayBuffer());
  }

  /** Puts a document's file back for an imported Context; the server checks its sha256. */
  importContextBlob(
    id: string,
    sha256: string,
    bytes: Uint8Array<ArrayBuffer>,
  ): Promise<{ sha256: string; size_bytes: number; restored: boolean }> {
    return this.#call({
      method: 'PUT',
      path: `/api/v1/contexts/${enc(id)}/import/blobs/${enc(sha256)}`,
      body: bytes,
      headers: { 'content-type': 'application/octet-stream' },
      retryable: true,
    });
  }

  retryDeadLetter(id: string): Promise<Record<string, unknown>> {
    const path = `/api/v1/migrations/dlq/${enc(id)}/retry`;
    return this.#call({ method: 'POST', path, retryable: false });
  }

  migrations(): Promise<Record<string, unknown>> {
    return this.#call({ method: 'GET', path: '/api/v1/migrations', retryable: true });
  }

  // --- facts and recall ------------------------------------------------------------------

  async remember(content: string, options: RememberOptions = {}): Promise<{ facts: Fact[] }> {
    const json = {
      content,
      scopes: options.scopes,
      metadata: options.metadata,
      session_id: options.sessionId,
      valid_from: options.validFrom,
      session: options.session,
      position: options.position,
    };
    return this.#call({
      method: 'POST',
      path: this.#p('/facts'),
      query: { infer: options.infer },
      json,
      headers: { 'idempotency-key': options.idempotencyKey ?? crypto.randomUUID() },
      retryable: true,
    });
  }

  rememberBatch(
    facts: BatchFact[],
    options: { idempotencyKey?: string } = {},
  ): Promise<{ facts: Fact[] }> {
    return this.#call({
      method: 'POST',
      path: this.#p('/facts/batch'),
      json: { facts },
      headers: { 'idempotency-key': options.idempotencyKey ?? crypto.randomUUID() },
      retryable: true,
    });
  }

  getFact(id: string): Promise<Fact> {
    return this.#call({ method: 'GET', path: this.#p(`/facts/${enc(id)}`), retryable: true });
  }

  listFacts(
    options: { cursor?: string; limit?: number; lens?: Lens; kind?: string } = {},
  ): Promise<FactPage> {
    const query = {
      cursor: options.cursor,
      limit: options.limit,
      kind: options.kind,
      lens: options.lens === undefined ? undefined : JSON.stringify(options.lens),
    };
    return this.#call({ method: 'GET', path: this.#p('/facts'), query, retryable: true });
  }

  /**
   * Edits a fact: a new version supersedes the current one, which stays as history. Scopes and
   * metadata default to the old version's; a new version keeps every old scope.
   */
  updateFact(
    id: string,
    change: { content: string; scopes?: string[]; metadata?: Record<string, unknown> },
  ): Promise<FactUpdate> {
    // Not retried: a replay after a lost answer would find the fact closed (409).
    const path = this.#p(`/facts/${enc(id)}`);
    return this.#call({ method: 'PATCH', path, json: change, retryable: false });
  }

  /** Every version of a fact the key may read, oldest first. */
  factHistory(id: string): Promise<FactHistory> {
    const path = this.#p(`/facts/${enc(id)}/history`);
    return this.#call({ method: 'GET', path, retryable: true });
  }

  /** Entities current facts the key may read mention, a page at a time. */
  listEntities(
    options: { prefix?: string; cursor?: string; limit?: number } = {},
  ): Promise<EntityPage> {
    const query = { prefix: options.prefix, cursor: options.cursor, limit: options.limit };
    return this.#call({ method: 'GET', path: this.#p('/entities'), query, retryable: true });
  }

  /** One entity by name, with the current facts the key may read that mention it. */
  getEntity(name: string, options: { limit?: number } = {}): Promise<EntityDetail> {
    const path = this.#p(`/entities/${enc(name)}`);
    return this.#call({ method: 'GET', path, query: { limit: options.limit }, retryable: true });
  }

  /** Deletes a fact (or, for a `document:<id>`, the document and its chunks) from every index. */
  forget(id: string): Promise<void> {
    if (id.startsWith('document:')) return this.deleteDocument(id);
    return this.#call({ method: 'DELETE', path: this.#p(`/facts/${enc(id)}`), retryable: true });
  }

  recall(
    query: string,
    options: {
      mode?: QueryMode;
      k?: number;
      lens?: Lens;
      /** Also return up to this many turns before and after each result in its session (0-5). */
      neighbours?: number;
      /** When the question is asked from (default: now): "last week" in it is resolved against it. */
      asOf?: string | Date;
      /** Also return, per result, what each arm contributed to its score (`explain`). */
      explain?: boolean;
    } = {},
  ): Promise<QueryResponse> {
    const json = {
      query,
      mode: options.mode,
      k: options.k,
      lens: options.lens,
      neighbours: options.neighbours,
      as_of: options.asOf instanceof Date ? options.asOf.toISOString() : options.asOf,
      explain: options.explain,
    };
    // A query only reads, so it is retried like a GET.
    return this.#call({ method: 'POST', path: this.#p('/query'), json, retryable: true });
  }

  // --- sessions ----------------------------------------------------------------------------

  /**
   * Creates a session. `scopes` must lie inside the key's write grant; reading the session and its
   * turns then needs a read grant matching them. Omitted: unscoped, which needs the root grant.
   * Facts extracted from its turns carry the same scopes.
   */
  createSession(
    options: { id?: string; scopes?: string[]; metadata?: Record<string, unknown> } = {},
  ): Promise<Session> {
    return this.#call({
      method: 'POST',
      path: this.#p('/sessions'),
      json: options,
      retryable: false,
    });
  }

  listSessions(page: { limit?: number; offset?: number } = {}): Promise<SessionList> {
    return this.#call({ method: 'GET', path: this.#p('/sessions'), query: page, retryable: true });
  }

  getSession(sessionId: string): Promise<Session> {
    return this.#call({
      method: 'GET',
      path: this.#p(`/sessions/${enc(sessionId)}`),
      retryable: true,
    });
  }

  deleteSession(sessionId: string): Promise<void> {
    const path = this.#p(`/sessions/${enc(sessionId)}`);
    return this.#call({ method: 'DELETE', path, retryable: true });
  }

  /** A prompt-ready block for one session (its recent turns and the memories they touch). */
  sessionContext(sessionId: string, options: { maxTokens?: number } = {}): Promise<ContextBlock> {
    const path = this.#p(`/sessions/${enc(sessionId)}/context`);
    return this.#call({
      method: 'GET',
      path,
      query: { max_tokens: options.maxTokens },
      retryable: true,
    });
  }

  /** `validFrom` (ISO 8601) is when the turn was said; facts extracted from it take that time. */
  addTurn(
    sessionId: string,
    role: string,
    content: string,
    options: { validFrom?: string } = {},
  ): Promise<Turn> {
    const path = this.#p(`/sessions/${enc(sessionId)}/turns`);
    const json = { role, content, valid_from: options.validFrom };
    return this.#call({ method: 'POST', path, json, retryable: false });
  }

  listTurns(sessionId: string, page: { limit?: number; offset?: number } = {}): Promise<TurnPage> {
    const path = this.#p(`/sessions/${enc(sessionId)}/turns`);
    return this.#call({ method: 'GET', path, query: page, retryable: true });
  }

  // --- context, chat, reflection --------------------------------------------------------------

  context(
    options: { query?: string; sessionId?: string; maxTokens?: number } = {},
  ): Promise<ContextBlock> {
    const json = {
      query: options.query,
      session_id: options.sessionId,
      max_tokens: options.maxTokens,
    };
    return this.#call({ method: 'POST', path: this.#p('/context'), json, retryable: true });
  }

  chat(message: string, options: { sessionId?: string; lens?: Lens } = {}): Promise<ChatResponse> {
    const json = { message, session_id: options.sessionId, lens: options.lens };
    return this.#call({ method: 'POST', path: this.#p('/chat'), json, retryable: false });
  }

  /**
   * Streams a chat answer as server-sent events. A server that answers with plain JSON yields
   * one `done` event carrying the whole response, so callers handle a single shape.
   */
  async *chatStream(
    message: string,
    options: { sessionId?: string; lens?: Lens; signal?: AbortSignal } = {},
  ): AsyncGenerator<ChatEvent> {
    const res = await this.#transport.send({
      method: 'POST',
      path: this.#p('/chat'),
      json: { message, session_id: options.sessionId, lens: options.lens, stream: true },
      headers: { accept: 'text/event-stream' },
      retryable: false,
      signal: options.signal,
    });
    const type = res.headers.get('content-type') ?? '';
    if (type.includes('text/event-stream') && res.body) {
      yield* readEvents(res.body);
      return;
    }
    yield { event: 'done', data: (await res.json()) as unknown };
  }

  reflect(options: { lens?: Lens; persist?: boolean } = {}): Promise<Record<string, unknown>> {
    return this.#call({
      method: 'POST',
      path: this.#p('/reflect'),
      json: options,
      retryable: false,
    });
  }

  consolidate(options: { lens?: Lens; dryRun?: boolean } = {}): Promise<Record<string, unknown>> {
    const json = { lens: options.lens, dry_run: options.dryRun };
    return this.#call({ method: 'POST', path: this.#p('/consolidate'), json, retryable: false });
  }

  // --- documents ----------------------------------------------------------------------------

  /** Uploads a file (multipart `file`); processing happens in the background. */
  uploadDocument(
    data: Blob | ArrayBuffer | Uint8Array<ArrayBuffer> | string,
    options: UploadOptions = {},
  ): Promise<DocumentState> {
    const form = uploadForm(data, options);
    return this.#call({
      method: 'POST',
      path: this.#p('/documents'),
      body: form,
      retryable: false,
    });
  }

  getDocument(id: string): Promise<DocumentState> {
    return this.#call({ method: 'GET', path: this.#p(`/documents/${enc(id)}`), retryable: true });
  }

  listDocuments(options: { cursor?: string; limit?: number } = {}): Promise<DocumentPage> {
    return this.#call({
      method: 'GET',
      path: this.#p('/documents'),
      query: options,
      retryable: true,
    });
  }

  deleteDocument(id: string): Promise<void> {
    return this.#call({
      method: 'DELETE',
      path: this.#p(`/documents/${enc(id)}`),
      retryable: true,
    });
  }

  /** Polls a document until it is `ready` or `failed` (a failure is a state, not an error). */
  waitForDocument(id: string, options: WaitOptions = {}): Promise<DocumentState> {
    const sleep =
      this.#options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    return pollDocument(() => this.getDocument(id), id, options, sleep);
  }

  health(): Promise<{ status: string }> {
    return this.#call({ method: 'GET', path: '/health', retryable: true });
  }

  // --- plumbing ------------------------------------------------------------------------------

  #call<T>(spec: RequestSpec): Promise<T> {
    return this.#transport.json<T>(spec);
  }

  #ctx(): string {
    const id = this.#options.contextId;
    if (!id)
      throw new MemoryError(
        'contextId is not set: pass it to the constructor or use withContext()',
        undefined,
        {},
      );
    return id;
  }

  #p(suffix: string): string {
    return `/api/v1/${enc(this.#ctx())}${suffix}`;
  }
}

function enc(segment: string): string {
  return encodeURIComponent(segment);
}
