import { ConnectionError, errorFromResponse, type MemoryError, type Problem } from './errors.ts';
import {
  DEFAULT_BASE_DELAY_MS,
  DEFAULT_MAX_RETRIES,
  isRetryableStatus,
  parseRetryAfter,
  retryDelayMs,
  sleep as defaultSleep,
  type RetryOptions,
} from './retry.ts';

/** How the client reaches the service; shared by every method. */
export interface TransportOptions {
  baseUrl: string;
  apiKey?: string;
  /** Per-attempt timeout in milliseconds (default 30 000). */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /** How to wait between attempts (tests pass a recorder). */
  sleep?: (ms: number) => Promise<void>;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  /** Safe to send again: reads, deletes, and writes that carry an `Idempotency-Key`. */
  retryable: boolean;
  signal?: AbortSignal;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

export class Transport {
  readonly #options: TransportOptions;

  constructor(options: TransportOptions) {
    this.#options = options;
  }

  get baseUrl(): string {
    return this.#options.baseUrl.replace(/\/+$/, '');
  }

  url(path: string, query?: RequestSpec['query']): string {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    return url.toString();
  }

  /** Sends a request with the retry rules and returns the successful response. */
  async send(spec: RequestSpec): Promise<Response> {
    const maxRetries = spec.retryable
      ? (this.#options.retry?.maxRetries ?? DEFAULT_MAX_RETRIES)
      : 0;
    const baseDelay = this.#options.retry?.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
    const wait = this.#options.sleep ?? defaultSleep;
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.#attempt(spec);
      if (outcome.ok) return outcome.response;
      const canRetry = attempt < maxRetries && outcome.retryable;
      if (!canRetry) throw outcome.error;
      await wait(retryDelayMs(attempt, outcome.retryAfter, baseDelay));
    }
  }

  /** Sends a request and parses its JSON body; 204 gives undefined. */
  async json<T>(spec: RequestSpec): Promise<T> {
    const res = await this.send(spec);
    if (res.status === 204) return undefined as T;
    return (await res.json()) as T;
  }

  async #attempt(spec: RequestSpec): Promise<Outcome> {
    const doFetch = this.#options.fetch ?? fetch;
    const headers = new Headers(spec.headers);
    if (this.#options.apiKey) headers.set('authorization', `Bearer ${this.#options.apiKey}`);
    headers.set('accept', headers.get('accept') ?? 'application/json');
    let body = spec.body;
    if (spec.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(spec.json);
    }
    const timeout = AbortSignal.timeout(this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const signal = spec.signal ? AbortSignal.any([spec.signal, timeout]) : timeout;
    let res: Response;
    try {
      res = await doFetch(this.url(spec.path, spec.query), {
        method: spec.method,
        headers,
        body,
        signal,
      });
    } catch (cause) {
      // A caller's own abort is final; a timeout or a network failure is a ConnectionError.
      if (spec.signal?.aborted) throw cause;
      const what = timeout.aborted ? 'timed out' : 'failed';
      const error = new ConnectionError(`${spec.method} ${spec.path} ${what}`, { cause });
      return { ok: false, error, retryable: true, retryAfter: undefined };
    }
    if (res.ok) return { ok: true, response: res };
    const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
    const problem = await readProblem(res);
    return {
      ok: false,
      error: errorFromResponse(res.status, problem, retryAfter),
      retryable: isRetryableStatus(res.status),
      retryAfter,
    };
  }
}

type Outcome =
  | { ok: true; response: Response }
  | { ok: false; error: MemoryError; retryable: boolean; retryAfter: number | undefined };

async function readProblem(res: Response): Promise<Problem> {
  const text = await res.text().catch(() => '');
  if (text.length === 0) return { status: res.status };
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Problem;
  } catch {
    // not JSON: keep the text as the detail
  }
  return { status: res.status, detail: text.slice(0, 500) };
}
