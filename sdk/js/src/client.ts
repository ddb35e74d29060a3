import { pollDocument, uploadForm } from './documents.ts';
import { MemoryError } from './errors.ts';
import { ManagementMethods } from './management.ts';
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
  ChatEvent,
  ChatResponse,
  ContextBlock,
  DocumentState,
  EntityDetail,
  EntityPage,
  Fact,
  FactHistory,
  FactUpdate,
  DocumentPage,
  FactPage,
  Lens,
  QueryMode,
  QueryResponse,
  Session,
  SessionList,
  Turn,
  TurnPage,
} from './types.ts';

/** Client for the memory service's REST API (`/api/v1`). */
export class MemoryClient extends ManagementMethods {
  readonly #transport: Transport;
  readonly #options: MemoryClientOptions;

  constructor(options: MemoryClientOptions) {
    super();
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

  /**
   * Merges duplicates and supersedes older values. A Context of more than 1,000 current facts is
   * planned a window at a time: pass the response's `next_cursor` back as `cursor` to go on.
   */
  consolidate(
    options: { lens?: Lens; dryRun?: boolean; cursor?: string } = {},
  ): Promise<Record<string, unknown>> {
    const json = { lens: options.lens, dry_run: options.dryRun, cursor: options.cursor };
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

  protected call<T>(spec: RequestSpec): Promise<T> {
    return this.#call(spec);
  }

  protected send(spec: RequestSpec): Promise<Response> {
    return this.#transport.send(spec);
  }

  protected requireContext(): string {
    return this.#ctx();
  }

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
