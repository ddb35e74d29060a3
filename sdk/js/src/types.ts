/**
 * Shapes of the memory service's requests and responses (docs: /docs/api). Fields the server
 * adds later arrive untouched: every response type is open to extra properties.
 */

/** Scope lens in disjunctive normal form: `['a', 'b']` is a OR b, `[['a', 'b']]` is a AND b. */
export type Lens = Array<string | string[]>;

export type QueryMode = 'vector' | 'bm25' | 'hybrid' | 'hybrid_graph';

export interface Context {
  id: string;
  schema_version: number;
  enforcement_blocked: boolean;
  token_limit: number | null;
  namespace?: string | null;
  /** The per-file upload limit in force: the Context's own, else the deployment default. */
  max_upload_bytes?: number;
  [field: string]: unknown;
}

export interface Fact {
  id: string;
  content: string;
  scopes: string[];
  metadata?: Record<string, unknown>;
  created_at?: string;
  /** When it was said or happened (its created_at unless given at write time). */
  valid_from?: string;
  /** Conversation label and turn position given at write time (null when absent). */
  session?: string | null;
  position?: number | null;
  [field: string]: unknown;
}

/** One arm's part in a result's score (`recall(..., { explain: true })`). */
export interface ArmShare {
  /** 1-based rank in the arm's list; null when the arm did not list the result. */
  rank: number | null;
  /** The arm's own score (bm25, cosine, PageRank...); null when not listed. */
  score: number | null;
  /** The arm's weight over the sum of the weights of the arms that took part. */
  weight: number;
  /** weight x the score min-max normalised in the arm's list. */
  contribution: number;
}

export interface ScoreExplanation {
  /** bm25, prf, synonym, vector, soft, graph: the arms that took part. */
  arms: Record<string, ArmShare>;
  /** The sum of the contributions; `score` adds what came after fusion. */
  fused: number;
}

export interface QueryResult {
  id: string;
  kind: 'fact' | 'chunk' | string;
  content: string;
  score: number;
  scopes: string[];
  valid_from?: string;
  session?: string | null;
  position?: number | null;
  /** Only when the query asked for neighbours: the turns around this one, by position. */
  neighbours?: NeighbourTurn[];
  /** Only when the query asked for an explanation: each arm's part in `score`. */
  explain?: ScoreExplanation;
  [field: string]: unknown;
}

/** A turn next to a result in its session. */
export interface NeighbourTurn {
  id: string;
  content: string;
  position: number;
  valid_from: string;
}

export interface QueryResponse {
  mode: QueryMode;
  results: QueryResult[];
  [field: string]: unknown;
}

export interface Session {
  id: string;
  /** Scope paths; `[]` is unscoped (only a root grant reads it). */
  scopes: string[];
  metadata?: Record<string, unknown> | null;
  turn_count?: number;
  created_at?: string;
  updated_at?: string;
  [field: string]: unknown;
}

export interface Turn {
  id: string;
  session_id?: string;
  role: string;
  content: string;
  created_at?: string;
  /** When it was said (ISO 8601): as given on append, else when it was stored. */
  valid_from?: string;
  [field: string]: unknown;
}

export interface SessionList {
  sessions: Session[];
  total: number;
  [field: string]: unknown;
}

export interface TurnPage {
  turns: Turn[];
  limit: number;
  offset: number;
  [field: string]: unknown;
}

export interface FactPage {
  facts: Fact[];
  next_cursor: string | null;
  [field: string]: unknown;
}

export interface DocumentPage {
  documents: DocumentState[];
  next_cursor: string | null;
  [field: string]: unknown;
}

export interface ContextBlock {
  context: string;
  items: unknown[];
  tokens: number;
  [field: string]: unknown;
}

export interface ChatResponse {
  answer?: string;
  [field: string]: unknown;
}

export interface DocumentState {
  id: string;
  status: 'queued' | 'processing' | 'ready' | 'failed' | string;
  error?: string | null;
  processing_started_at?: string | null;
  processing_completed_at?: string | null;
  [field: string]: unknown;
}

export interface Principal {
  id: string;
  kind: 'agent' | 'supervisor' | 'management';
  display_name: string;
  external_id?: string | null;
  [field: string]: unknown;
}

export interface ApiKey {
  id?: string;
  /** The secret, shown once. */
  key: string;
  [field: string]: unknown;
}

export interface KeyGrants {
  'memory:read'?: string[];
  'memory:write'?: string[];
  'memory:forget'?: string[];
}

/** One event of a streamed chat answer. */
export interface ChatEvent {
  /** SSE event name (`message` when the server sent none). */
  event: string;
  /** The event's data, parsed as JSON when it is JSON. */
  data: unknown;
}

/** A page of a control-plane list (`listContexts`, `listKeys`, `listPrincipals`). */
export interface ContextPage {
  contexts: Context[];
  next_cursor: string | null;
  [field: string]: unknown;
}

export interface KeyPage {
  /** Never with secrets: id, prefix, principal, Context, grants, scope floor, dates. */
  keys: Omit<ApiKey, 'key'>[];
  next_cursor: string | null;
  [field: string]: unknown;
}

export interface PrincipalPage {
  principals: Principal[];
  next_cursor: string | null;
  [field: string]: unknown;
}

/** `whoAmI()`: the calling key as the server knows it. */
export interface WhoAmI {
  key_id: string;
  principal: { id: string; kind: Principal['kind']; display_name: string };
  /** The one Context the key may touch; null for a root management key. */
  context_id: string | null;
  root: boolean;
  grants: Required<KeyGrants>;
  scope_floor: string | null;
  read_lens: string[][];
  [field: string]: unknown;
}

export interface FactHistory {
  id: string;
  /** Oldest first; versions outside the key's read grant are left out. */
  versions: Fact[];
  [field: string]: unknown;
}

export interface FactUpdate {
  fact: Fact;
  /** The id of the version it closed. */
  replaces: string;
  [field: string]: unknown;
}

export interface Entity {
  name: string;
  display: string;
  /** Current items the key may read that mention it, counted up to 1,000. */
  items: number;
  /** True when more may mention it than `items` counts (the count stopped at its cap). */
  items_more: boolean;
  [field: string]: unknown;
}

export interface EntityPage {
  entities: Entity[];
  next_cursor: string | null;
  [field: string]: unknown;
}

export interface EntityDetail {
  entity: Entity;
  items: Fact[];
  [field: string]: unknown;
}
