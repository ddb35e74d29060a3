// The scale bench's traffic to the memory API under `wrangler dev`: provisioning one Context and
// an agent key, growing the Context through `POST /facts/batch` (batches of 100, a few in
// flight), and timed queries. Every answer's status is tallied, so the report can say how many
// were not 2xx (a 5xx or a reset object shows there).
import type { DevServer } from '../../test/support/wrangler-dev.ts';
import { managementCall } from './dev-api.ts';
import { factAt, type ScaleQuestion } from './scale-facts.ts';

export const BATCH = 100;
let serverErrorsShown = 0;
/** Per request: a batch or a query that takes longer has failed, whatever its answer. */
const REQUEST_TIMEOUT_MS = 180_000;
/** Attempts per batch (each failure is tallied); the same Idempotency-Key makes a retry safe. */
const BATCH_ATTEMPTS = 3;

/** Counts of answers by HTTP status, plus requests that got no answer (status 0). */
export class StatusTally {
  readonly counts = new Map<number, number>();
  add(status: number): void {
    this.counts.set(status, (this.counts.get(status) ?? 0) + 1);
  }
  /** "none", or e.g. "503 ×2, no answer ×1". */
  failures(): string {
    const bad = [...this.counts].filter(([s]) => s < 200 || s >= 300).sort(([a], [b]) => a - b);
    if (bad.length === 0) return 'none';
    return bad.map(([s, n]) => `${s === 0 ? 'no answer' : s} ×${n}`).join(', ');
  }
}

export interface Agent {
  contextId: string;
  key: string;
}

/** A Context and an agent key that may read, write and forget everywhere in it. */
export async function provision(server: DevServer, contextId: string): Promise<Agent> {
  await managementCall(server, 'POST', '/api/v1/contexts', { id: contextId });
  const principal = (await managementCall(server, 'POST', '/api/v1/principals', {
    kind: 'agent',
    display_name: 'scale-bench',
  })) as { id: string };
  const issued = (await managementCall(server, 'POST', '/api/v1/keys', {
    principal_id: principal.id,
    context_id: contextId,
    grants: { 'memory:read': ['*'], 'memory:write': ['*'], 'memory:forget': ['*'] },
  })) as { key: string };
  return { contextId, key: issued.key };
}

async function post(
  server: DevServer,
  agent: Agent,
  path: string,
  body: unknown,
  tally: StatusTally,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: unknown }> {
  try {
    const res = await fetch(`${server.url}/api/v1/${agent.contextId}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${agent.key}`,
        'content-type': 'application/json',
        ...headers,
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    tally.add(res.status);
    // A 5xx is a finding: its problem body says which (the first few are printed).
    if (res.status >= 500 && serverErrorsShown++ < 5)
      console.error(`scale: ${res.status} from ${path}: ${text.slice(0, 500)}`);
    return { status: res.status, json: res.ok ? JSON.parse(text) : text };
  } catch (err) {
    tally.add(0);
    return { status: 0, json: String(err) };
  }
}

async function writeBatch(
  server: DevServer,
  agent: Agent,
  from: number,
  to: number,
  tally: StatusTally,
): Promise<void> {
  const facts = Array.from({ length: to - from }, (_, j) => factAt(from + j));
  const idempotency = { 'idempotency-key': `scale-${agent.contextId}-${from}-${to}` };
  let last = '';
  for (let attempt = 0; attempt < BATCH_ATTEMPTS; attempt++) {
    const res = await post(server, agent, '/facts/batch', { facts }, tally, idempotency);
    if (res.status === 201) return;
    last = `${res.status} ${String(res.json).slice(0, 300)}`;
  }
  throw new Error(`facts ${from}..${to - 1}: ${BATCH_ATTEMPTS} attempts failed, last ${last}`);
}

/**
 * Writes facts `from`..`to - 1` in batches of 100, `concurrency` batches in flight; returns
 * the seconds it took.
 */
export async function grow(
  server: DevServer,
  agent: Agent,
  from: number,
  to: number,
  concurrency: number,
  tally: StatusTally,
  progress: (written: number) => void = () => undefined,
): Promise<number> {
  const started = performance.now();
  let next = from;
  // Once one batch has failed for good the others stop taking new ones.
  let failed = false;
  const worker = async () => {
    while (next < to && !failed) {
      const start = next;
      const end = Math.min(to, start + BATCH);
      next = end;
      await writeBatch(server, agent, start, end, tally).catch((err: unknown) => {
        failed = true;
        throw err;
      });
      progress(end);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return (performance.now() - started) / 1000;
}

export interface TimedQuery {
  ms: number;
  status: number;
  /** The mode the answer says it used (bm25 while vectors of another model remain). */
  mode: string | null;
  /** The fact numbers of the hits (their `metadata.n`), best first. */
  hits: number[];
}

/** One query, timed from request to the end of the answer's body. */
export async function timedQuery(
  server: DevServer,
  agent: Agent,
  question: ScaleQuestion,
  mode: string,
  tally: StatusTally,
): Promise<TimedQuery> {
  const started = performance.now();
  const res = await post(server, agent, '/query', { ...question, mode, k: 10 }, tally);
  const ms = performance.now() - started;
  const answer = (res.status === 200 ? res.json : {}) as {
    mode?: unknown;
    results?: { metadata?: { n?: unknown } | null }[];
  };
  const hits = (answer.results ?? []).flatMap((r) =>
    typeof r.metadata?.n === 'number' ? [r.metadata.n] : [],
  );
  const used = typeof answer.mode === 'string' ? answer.mode : null;
  return { ms, status: res.status, mode: used, hits };
}
