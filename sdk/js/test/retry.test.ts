import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthError,
  ConnectionError,
  MemoryClient,
  NotFoundError,
  RateLimitError,
  ScopeError,
  ServerError,
  ValidationError,
  parseRetryAfter,
} from '../src/index.ts';
import { ScriptedServer, problem } from './scripted-server.ts';

const server = new ScriptedServer();
let baseUrl = '';
let waits: number[] = [];

function client(extra: { timeoutMs?: number; maxRetries?: number } = {}): MemoryClient {
  return new MemoryClient({
    baseUrl,
    apiKey: 'mem_agent_test',
    contextId: 'ctx-1',
    timeoutMs: extra.timeoutMs,
    retry: extra.maxRetries === undefined ? undefined : { maxRetries: extra.maxRetries },
    // Record the waits instead of sleeping: the rules are asserted, not the clock.
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
}

beforeAll(async () => {
  baseUrl = await server.start();
});
afterAll(() => server.stop());
beforeEach(() => {
  waits = [];
});

describe('error classes map the spec table', () => {
  const cases = [
    [401, 'unauthorized', AuthError],
    [403, 'forbidden', ScopeError],
    [404, 'not-found', NotFoundError],
    [400, 'validation-error', ValidationError],
    [422, 'unprocessable', ValidationError],
    [409, 'conflict', ApiError],
    [413, 'payload-too-large', ApiError],
  ] as const;
  for (const [status, slug, cls] of cases) {
    it(`${status} throws ${cls.name} carrying the problem body`, async () => {
      server.script({ status, body: problem(status, slug) });
      const err = await client()
        .getFact('f1')
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(cls);
      expect(err).toMatchObject({ status, body: { status, type: expect.stringContaining(slug) } });
      // Client errors are final: one request only.
      expect(server.seen).toHaveLength(1);
    });
  }

  it('429 throws RateLimitError with retryAfter once retries are spent', async () => {
    const reply = {
      status: 429,
      headers: { 'retry-after': '2' },
      body: problem(429, 'rate-limited', { retry_after: 2 }),
    };
    server.script(reply, reply, reply, reply);
    const err = await client()
      .getFact('f1')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfter).toBe(2);
    expect(server.seen).toHaveLength(4);
    expect(waits).toEqual([2000, 2000, 2000]);
  });

  it('429 without a Retry-After header takes retryAfter from the body', async () => {
    server.script({ status: 429, body: problem(429, 'rate-limited', { retry_after: 9 }) });
    const err = await client({ maxRetries: 0 })
      .getFact('f1')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfter).toBe(9);
  });

  it('500 and 503 throw ServerError', async () => {
    for (const status of [500, 503]) {
      server.script(...Array.from({ length: 4 }, () => ({ status, body: problem(status, 'x') })));
      const err = await client()
        .getFact('f1')
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServerError);
      expect((err as ServerError).status).toBe(status);
    }
  });

  it('a dropped connection throws ConnectionError with no status', async () => {
    server.script({ destroy: true });
    const err = await client({ maxRetries: 0 })
      .getFact('f1')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).status).toBeUndefined();
  });

  it('a timeout throws ConnectionError', async () => {
    server.script({ delayMs: 500, body: {} });
    const err = await client({ timeoutMs: 50, maxRetries: 0 })
      .getFact('f1')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as Error).message).toContain('timed out');
  });
});

describe('retry rules', () => {
  it('backs off 250, 500, 1000 ms over three retries of a read', async () => {
    const shed = { status: 503, body: problem(503, 'service-unavailable') };
    server.script(shed, shed, shed, { status: 200, body: { id: 'f1', content: 'x', scopes: [] } });
    const fact = await client().getFact('f1');
    expect(fact.id).toBe('f1');
    expect(server.seen).toHaveLength(4);
    expect(waits).toEqual([250, 500, 1000]);
  });

  it('waits the larger of its backoff and a delta-seconds Retry-After', async () => {
    server.script(
      { status: 503, headers: { 'retry-after': '1' }, body: problem(503, 'shed') },
      { status: 503, headers: { 'retry-after': '0' }, body: problem(503, 'shed') },
      { status: 200, body: { mode: 'hybrid', results: [] } },
    );
    await client().recall('anything');
    expect(waits).toEqual([1000, 500]);
  });

  it('falls back to plain backoff for an HTTP-date Retry-After', async () => {
    const date = new Date(Date.now() + 60_000).toUTCString();
    server.script(
      { status: 503, headers: { 'retry-after': date }, body: problem(503, 'shed') },
      { status: 200, body: {} },
    );
    await client().getDocument('document:1');
    expect(waits).toEqual([250]);
    expect(parseRetryAfter(date)).toBeUndefined();
    expect(parseRetryAfter('7')).toBe(7);
  });

  it('retries a connection failure of a read', async () => {
    server.script({ destroy: true }, { status: 200, body: { status: 'ok' } });
    await expect(client().health()).resolves.toEqual({ status: 'ok' });
    expect(waits).toEqual([250]);
  });

  it('gives a fact write an automatic Idempotency-Key, the same on every retry', async () => {
    server.script(
      { status: 429, body: problem(429, 'rate-limited') },
      { status: 201, body: { facts: [{ id: 'f1', content: 'a', scopes: [] }] } },
    );
    await client().remember('a', { scopes: ['team:eng'] });
    expect(server.seen).toHaveLength(2);
    const [first, second] = server.seen.map((r) => r.headers['idempotency-key']);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBe(first);
    expect(JSON.parse(server.seen[0]?.body ?? '{}')).toEqual({
      content: 'a',
      scopes: ['team:eng'],
    });
  });

  it('keeps a caller-chosen Idempotency-Key on batch writes', async () => {
    server.script(
      { status: 500, body: problem(500, 'internal') },
      { status: 201, body: { facts: [] } },
    );
    await client().rememberBatch([{ content: 'a' }], { idempotencyKey: 'batch-1' });
    expect(server.seen.map((r) => r.headers['idempotency-key'])).toEqual(['batch-1', 'batch-1']);
  });

  it('does not retry a non-idempotent write', async () => {
    server.script({ status: 503, body: problem(503, 'shed') }, { status: 201, body: {} });
    const err = await client()
      .addTurn('s1', 'user', 'hi')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect(server.seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('does not retry a chat after a dropped connection', async () => {
    server.script({ destroy: true }, { status: 200, body: {} });
    await expect(client().chat('hi')).rejects.toBeInstanceOf(ConnectionError);
    expect(server.seen).toHaveLength(1);
  });

  it('honours maxRetries', async () => {
    const shed = { status: 503, body: problem(503, 'shed') };
    server.script(shed, shed, shed);
    await expect(client({ maxRetries: 1 }).getFact('f')).rejects.toBeInstanceOf(ServerError);
    expect(server.seen).toHaveLength(2);
  });
});

describe('requests', () => {
  it('sends the bearer key and the Context in the path', async () => {
    server.script({ status: 200, body: { mode: 'bm25', results: [] } });
    await client().recall('q', { mode: 'bm25', k: 3, lens: [['a', 'b']] });
    const req = server.seen[0];
    expect(req?.url).toBe('/api/v1/ctx-1/query');
    expect(req?.headers.authorization).toBe('Bearer mem_agent_test');
    expect(JSON.parse(req?.body ?? '{}')).toEqual({
      query: 'q',
      mode: 'bm25',
      k: 3,
      lens: [['a', 'b']],
    });
  });

  it('asks for neighbour turns only when told to', async () => {
    const empty = { status: 200, body: { mode: 'hybrid', results: [] } };
    server.script(empty, empty);
    await client().recall('q', { neighbours: 2 });
    await client().recall('q');
    expect(JSON.parse(server.seen[0]?.body ?? '{}')).toEqual({ query: 'q', neighbours: 2 });
    expect(JSON.parse(server.seen[1]?.body ?? '{}')).toEqual({ query: 'q' });
  });

  it('sends as_of as an ISO date-time, from a string or a Date', async () => {
    const empty = { status: 200, body: { mode: 'hybrid', results: [] } };
    server.script(empty, empty);
    await client().recall('what did I do last year?', { asOf: '2024-03-01T00:00:00Z' });
    await client().recall('q', { asOf: new Date(Date.UTC(2024, 2, 1)) });
    expect(JSON.parse(server.seen[0]?.body ?? '{}')).toEqual({
      query: 'what did I do last year?',
      as_of: '2024-03-01T00:00:00Z',
    });
    expect(JSON.parse(server.seen[1]?.body ?? '{}')).toEqual({
      query: 'q',
      as_of: '2024-03-01T00:00:00.000Z',
    });
  });

  it('streams chat events, or wraps a JSON answer in one done event', async () => {
    server.script({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body: 'event: delta\ndata: {"text":"he"}\n\nevent: delta\ndata: {"text":"llo"}\n\nevent: done\ndata: {"answer":"hello"}\n\n',
    });
    const events = [];
    for await (const e of client().chatStream('hi')) events.push(e);
    expect(events).toEqual([
      { event: 'delta', data: { text: 'he' } },
      { event: 'delta', data: { text: 'llo' } },
      { event: 'done', data: { answer: 'hello' } },
    ]);
    expect(server.seen[0]?.headers.accept).toBe('text/event-stream');

    server.script({ status: 200, body: { answer: 'whole' } });
    const whole = [];
    for await (const e of client().chatStream('hi')) whole.push(e);
    expect(whole).toEqual([{ event: 'done', data: { answer: 'whole' } }]);
  });

  it('polls a document until it is ready or failed', async () => {
    server.script(
      { body: { id: 'document:1', status: 'queued' } },
      { body: { id: 'document:1', status: 'processing' } },
      { body: { id: 'document:1', status: 'failed', error: 'encrypted PDF' } },
    );
    const doc = await client().waitForDocument('document:1', { intervalMs: 10 });
    expect(doc).toMatchObject({ status: 'failed', error: 'encrypted PDF' });
    expect(server.seen).toHaveLength(3);
    expect(waits).toEqual([10, 10]);
  });

  it('withContext keeps the settings and changes the path', async () => {
    server.script({ status: 200, body: { id: 'f1', content: 'x', scopes: [] } });
    await client().withContext('ctx-2').getFact('f1');
    expect(server.seen[0]?.url).toBe('/api/v1/ctx-2/facts/f1');
    expect(server.seen[0]?.headers.authorization).toBe('Bearer mem_agent_test');
  });

  it('refuses a Context-scoped call without a contextId', async () => {
    const c = new MemoryClient({ baseUrl });
    expect(() => c.recall('q')).toThrow(/contextId is not set/);
  });
});
