/**
 * The shapes inference works on: plain records, independent of how the store keeps them, so the
 * same functions run inside the Durable Object, in tests and in the benchmark.
 */

export type MemoryKind = 'fact' | 'chunk' | 'reflection';

export interface MemoryRecord {
  id: string;
  kind: MemoryKind;
  content: string;
  scopes: string[];
  created_at: string;
  /** Set when a later fact superseded this one; superseded facts are history, not answers. */
  valid_until?: string | null;
  score?: number;
}

export interface TurnRecord {
  id: string;
  session_id: string;
  role: 'user' | 'assistant' | 'system' | 'tool';
  /** Who spoke, used to resolve "I" and "my"; the role when no name is known. */
  speaker?: string;
  content: string;
  created_at: string;
}

/** Who produced an answer: every model-backed response names it. */
export interface ModelAttribution {
  provider: string;
  model: string;
  /** True when the text only quotes stored memory (the local provider). */
  extractive: boolean;
}
