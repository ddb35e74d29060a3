/** The shapes of the API answers the console reads, as docs/memory-api.md documents them. */
export const MODES = ['bm25', 'vector', 'hybrid', 'hybrid_graph'] as const;
export type Mode = (typeof MODES)[number];

export interface Fact {
  id: string;
  kind: 'fact' | 'chunk' | 'reflection';
  content: string;
  scopes: string[];
  metadata: Record<string, unknown> | null;
  session_id: string | null;
  source_id: string | null;
  created_at: string;
  valid_from?: string;
  valid_until?: string | null;
  superseded_by?: string | null;
  session?: string | null;
}

export interface Ranks {
  bm25: number | null;
  vector: number | null;
  graph?: number | null;
}

/** The arms a fused query can draw on (`POST /query` with `explain`). */
export const ARMS = ['bm25', 'vector', 'soft', 'synonym', 'prf', 'graph'] as const;
export type Arm = (typeof ARMS)[number];

/** One arm's part in a result's score, as the server computed it. */
export interface ArmShare {
  rank: number | null;
  score: number | null;
  weight: number;
  contribution: number;
}

export interface ScoreExplanation {
  arms: Partial<Record<Arm, ArmShare>>;
  fused: number;
}

export interface QueryHit extends Fact {
  score: number;
  ranks?: Ranks;
  explain?: ScoreExplanation;
}

export interface QueryAnswer {
  mode: Mode;
  results: QueryHit[];
  note?: string;
}

export interface FactPage {
  facts: Fact[];
  next_cursor: string | null;
}

export interface ContextBlock {
  context: string;
  items: { id: string; kind: string; content: string; score?: number; role?: string }[];
  tokens: number;
  max_tokens: number;
  cached: boolean;
}

export interface BackupSetting {
  every_hours: number;
  keep: number;
}

export interface ContextInfo {
  id: string;
  schema_version: number;
  enforcement_blocked: boolean;
  token_limit: number | null;
  namespace: string | null;
  /** Scheduled backups to R2; null: none. */
  backup: BackupSetting | null;
  created_at: string;
  updated_at: string;
  usage: {
    facts: number;
    documents: number;
    chunks: number;
    reflections: number;
    sessions: number;
    turns: number;
    llm_tokens: number;
  };
}

export interface Migrations {
  latest_version: number;
  histogram: Record<string, number>;
  behind: { context_id: string; schema_version: number; migration_ready: boolean }[];
  dlq: {
    id: string;
    context_id: string;
    job_id: string;
    kind: string;
    error: string;
    attempts: number;
    recorded_at: string;
    retried_at: string | null;
    retry_job_id: string | null;
  }[];
}

export interface Session {
  id: string;
  metadata?: Record<string, unknown> | null;
  created_at?: string;
  scopes?: string[];
}

export interface Turn {
  id?: string;
  role: string;
  content: string;
  position?: number;
  created_at?: string;
}

export interface DocumentInfo {
  id: string;
  filename: string | null;
  content_type: string;
  size_bytes: number;
  status: string;
  error: string | null;
  scopes: string[];
  pages: number | null;
  chunk_count: number | null;
  created_at: string;
}

export interface Entity {
  name: string;
  display: string;
  items: number;
  items_more: boolean;
}

export interface EntityPage {
  entities: Entity[];
  next_cursor: string | null;
}

export interface FactHistory {
  id: string;
  versions: Fact[];
}

/** `GET /api/v1/whoami`: the signed-in key as the server knows it. */
export interface WhoAmI {
  key_id: string;
  principal: { id: string; kind: 'agent' | 'supervisor' | 'management'; display_name: string };
  context_id: string | null;
  root: boolean;
  grants: Record<'memory:read' | 'memory:write' | 'memory:forget', string[]>;
  scope_floor: string | null;
  read_lens: string[][];
}

/** A row of `GET /api/v1/contexts` (usage counts: `GET /contexts/{id}`). */
export interface ContextSummary {
  id: string;
  schema_version: number;
  enforcement_blocked: boolean;
  token_limit: number | null;
  namespace: string | null;
  created_at: string;
  updated_at: string;
}

export interface ContextPage {
  contexts: ContextSummary[];
  next_cursor: string | null;
}

export interface ApiKeyInfo {
  id: string;
  principal_id: string;
  context_id: string | null;
  kind: 'agent' | 'supervisor' | 'management';
  prefix: string;
  grants: Record<'memory:read' | 'memory:write' | 'memory:forget', string[]>;
  scope_floor: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface PrincipalInfo {
  id: string;
  kind: 'agent' | 'supervisor' | 'management';
  display_name: string;
  external_id: string | null;
  owner_context_id: string | null;
  created_at: string;
}
