import {
  createExecutionContext,
  createMessageBatch,
  env,
  getQueueResult,
  runInDurableObject,
} from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { handleQueue } from '../../../functions/memory/jobs/queue.ts';
import { applyMigrations } from '../../../functions/memory/store/schema/runner.ts';

/** The bootstrap management key the workerd test config sets (vitest.workers.config.ts). */
export const MANAGEMENT_KEY = 'mem_management_bootstrap_for_tests_only_0000000000';

export function api(path: string, init: RequestInit & { key?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${init.key ?? MANAGEMENT_KEY}`);
  return exports.default.fetch(`https://example.com${path}`, { ...init, headers });
}

export async function createContext(id: string): Promise<void> {
  const res = await api('/api/v1/contexts', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id }),
  });
  if (res.status !== 201) throw new Error(`create ${id}: ${res.status} ${await res.text()}`);
}

/**
 * Test-only path to a Context still at schema V1, as if created by an older release: the
 * registry row says 1 and the store has only V1 applied.
 */
export async function createContextAtV1(id: string): Promise<void> {
  const now = new Date().toISOString();
  await env.DB.prepare(
    'INSERT INTO contexts (id, schema_version, created_at, updated_at) VALUES (?, 1, ?, ?)',
  )
    .bind(id, now, now)
    .run();
  await runInDurableObject(env.CONTEXT_STORE.getByName(id), (_obj, state) => {
    applyMigrations(state.storage, 1);
  });
}

/** An agent key bound to one Context with full grants (for 403 checks). */
export function agentKey(contextId: string, name: string): Promise<string> {
  return agentKeyWithGrant(contextId, name, ['*']);
}

/** An agent key bound to one Context, granted `paths` for every verb. */
export async function agentKeyWithGrant(
  contextId: string,
  name: string,
  paths: string[],
): Promise<string> {
  const principal = await api('/api/v1/principals', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'agent', display_name: name }),
  });
  const { id } = (await principal.json()) as { id: string };
  const key = await api('/api/v1/keys', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      principal_id: id,
      context_id: contextId,
      grants: { 'memory:read': paths, 'memory:write': paths, 'memory:forget': paths },
    }),
  });
  const body = (await key.json()) as { key: string };
  return body.key;
}

/** A queue stand-in that records what is sent, so tests drive the consumer themselves. */
export class CapturingQueue {
  readonly sent: unknown[] = [];
  async send(body: unknown): Promise<void> {
    this.sent.push(body);
  }
  async sendBatch(messages: Iterable<{ body: unknown }>): Promise<void> {
    for (const m of messages) this.sent.push(m.body);
  }
}

export function fakeEnv(queue: CapturingQueue): { DB: D1Database; JOBS: Queue } {
  return { DB: env.DB, JOBS: queue as unknown as Queue };
}

let nextMessage = 0;

/** Delivers `bodies` to the one queue handler as `queue`, and returns what it acked/retried. */
export async function deliver(
  queue: 'memory-jobs' | 'memory-jobs-dlq',
  bodies: unknown[],
  attempts = 1,
) {
  const batch = createMessageBatch(
    queue,
    bodies.map((body) => ({ id: `msg-${++nextMessage}`, timestamp: new Date(), attempts, body })),
  );
  const ctx = createExecutionContext();
  await handleQueue(batch, env);
  return getQueueResult(batch, ctx);
}
