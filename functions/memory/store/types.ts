import type { Explanation } from '../retrieval/fusion-explain.ts';

/**
 * Memory items: the one searchable unit. Facts (this issue), document chunks (documents issue)
 * and reflections (model-backed issue) are rows of the same table and go through the same FTS5,
 * vector and entity machinery, so every query mode returns them with their `kind`.
 */
export type ItemKind = 'fact' | 'chunk' | 'reflection';
export const ITEM_KINDS = ['fact', 'chunk', 'reflection'] as const;

export interface StoredVector {
  modelId: string;
  values: Float32Array;
}

export interface NewItem {
  kind: ItemKind;
  content: string;
  scopes: string[];
  metadata: JsonObject | null;
  sessionId: string | null;
  /** For chunks: the `document:<id>` they came from; for reflections: what they summarise. */
  sourceId: string | null;
  /** Embedding computed in the Worker (the embedder may call a network model). */
  vector: StoredVector | null;
  /** Entity names; when absent they are extracted from the content. */
  entities?: string[];
  /** When it was said or happened (ISO 8601); the write time when absent. */
  validFrom?: string | null;
  /** The conversation or session label the item belongs to (schema V5 `session_label`). */
  session?: string | null;
  /** The item's turn position inside `session` (0-based). */
  position?: number | null;
}

export interface ItemRecord {
  id: string;
  kind: ItemKind;
  content: string;
  scopes: string[];
  metadata: JsonObject | null;
  session_id: string | null;
  source_id: string | null;
  created_at: string;
  /** When the item became current: its stored `valid_from`, else `created_at`. */
  valid_from?: string;
  /** Set when a later fact superseded, refined or absorbed this one: it is history since. */
  valid_until?: string | null;
  /** The item that closed this one (V4 `item_links`), when known. */
  superseded_by?: string | null;
  /** The conversation label the item belongs to, null when none (schema V5). */
  session?: string | null;
  /** The item's turn position inside `session`, null when none (schema V5). */
  position?: number | null;
}

export type SearchMode = 'vector' | 'bm25' | 'hybrid' | 'hybrid_graph';
export const SEARCH_MODES = ['vector', 'bm25', 'hybrid', 'hybrid_graph'] as const;

export interface SearchRequest {
  mode: SearchMode;
  text: string;
  /** Query embedding for vector/hybrid modes, with its model id. */
  vector: StoredVector | null;
  k: number;
  /** DNF lens already checked against the caller's grant. */
  lens: string[][];
  /** Restrict to these kinds (all kinds when absent). */
  kinds?: ItemKind[];
  /** Also return items closed by supersession or merging (left out by default). */
  includeSuperseded?: boolean;
  /**
   * Also return, with each hit, up to this many turns before and after it in its session
   * (store/neighbours.ts); absent or 0: none.
   */
  neighbours?: number;
  /**
   * ISO 8601 instant the question is asked from: relative periods in it ("last year",
   * "yesterday") are resolved against it (retrieval/time-terms.ts). Absent: they add nothing.
   */
  asOf?: string;
  /** Also return, with each hit, what each arm contributed (retrieval/fusion-explain.ts). */
  explain?: boolean;
}

export interface SearchRanks {
  bm25: number | null;
  vector: number | null;
  graph?: number | null;
}

export interface SearchHit {
  id: string;
  kind: ItemKind;
  content: string;
  score: number;
  scopes: string[];
  metadata: JsonObject | null;
  created_at: string;
  /** When it was said or happened (its `created_at` unless given at write time). */
  valid_from: string;
  /** The conversation label and turn position given at write time, null when absent. */
  session: string | null;
  position: number | null;
  /** Present only on superseded items, which only `includeSuperseded` returns. */
  valid_until?: string;
  ranks?: SearchRanks;
  /** Only when the request asks for an explanation: each arm's part in the score. */
  explain?: Explanation;
  /** Only when the request asks for neighbours: the turns around this one, by position. */
  neighbours?: NeighbourTurn[];
}

/** A turn next to a hit in its session, as `neighbours` returns it. */
export interface NeighbourTurn {
  id: string;
  content: string;
  position: number;
  valid_from: string;
}

export interface SessionRecord {
  id: string;
  /** Scope paths, as on facts; `[]` is unscoped (only the root grant reads it). */
  scopes: string[];
  metadata: JsonObject | null;
  created_at: string;
  updated_at: string;
  turn_count: number;
}

export interface TurnRecord {
  id: string;
  session_id: string;
  role: string;
  content: string;
  created_at: string;
  /** When it was said: given on append, else the append time (`created_at` below `turn-time`). */
  valid_from: string;
}

export interface StoreUsage {
  facts: number;
  /** Uploaded documents, whatever their status. */
  documents: number;
  chunks: number;
  reflections: number;
  sessions: number;
  turns: number;
}

/** JSON values as they cross RPC (an `unknown` would not be serialisable in the stub's type). */
export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };
