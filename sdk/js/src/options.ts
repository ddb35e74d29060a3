import type { TransportOptions } from './transport.ts';

/** Options of the client and of its methods. */
export interface MemoryClientOptions extends TransportOptions {
  /** The Context every Context-scoped method works in (see `withContext`). */
  contextId?: string;
}

export interface RememberOptions {
  scopes?: string[];
  metadata?: Record<string, unknown>;
  sessionId?: string;
  /** When it was said or happened (ISO 8601 date-time; default now). */
  validFrom?: string;
  /** A conversation label the fact belongs to (at most 128 characters). */
  session?: string;
  /** The turn position inside `session` (integer >= 0). */
  position?: number;
  /** `'full'` extracts atomic facts with the model (LLM-backed). */
  infer?: 'full';
  /** Sent as `Idempotency-Key`; a fresh one is generated when absent so retries are safe. */
  idempotencyKey?: string;
}

export interface BatchFact {
  content: string;
  scopes?: string[];
  metadata?: Record<string, unknown>;
  /** When it was said or happened (ISO 8601 date-time; default now). */
  valid_from?: string;
  /** A conversation label and the turn position inside it. */
  session?: string;
  position?: number;
}

export interface UploadOptions {
  filename?: string;
  contentType?: string;
  /** Scope paths of the document and its chunks; they must lie inside the write grant. */
  scopes?: string[];
  /** Password of an encrypted PDF. */
  password?: string;
}

export interface WaitOptions {
  /** Poll interval in milliseconds (default 500). */
  intervalMs?: number;
  /** Give up after this many milliseconds (default 120 000). */
  timeoutMs?: number;
}
