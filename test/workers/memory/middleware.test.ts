import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createMemoryApp } from '../../../functions/memory/app.ts';
import type { RouteModule } from '../../../functions/memory/routes/registry.ts';
import { BOOTSTRAP, call, createContext, expectProblem, ORIGIN } from './helpers.ts';

function request(
  app: ReturnType<typeof createMemoryApp>,
  path: string,
  init: RequestInit = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (!headers.has('authorization')) headers.set('authorization', `Bearer ${BOOTSTRAP}`);
  return Promise.resolve(app.request(`${ORIGIN}${path}`, { ...init, headers }, env));
}

describe('load shedding', () => {
  it('answers 503 with Retry-After above MAX_IN_FLIGHT, and never sheds /health', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow: RouteModule = {
      name: 'slow',
      register(app) {
        app.get('/api/v1/slow-for-test', async (c) => {
          await gate;
          return c.json({ done: true });
        });
      },
    };
    const app = createMemoryApp({
      loadShed: { maxInFlight: 1, retryAfterSeconds: 2 },
      routes: [slow],
    });
    const first = request(app, '/api/v1/slow-for-test');
    // Let the first request get past the shedding middleware.
    await new Promise((r) => setTimeout(r, 50));
    const shed = await request(app, '/api/v1/slow-for-test');
    const body = await expectProblem(shed, 503, 'service-unavailable');
    expect(shed.headers.get('retry-after')).toBe('2');
    expect(body.detail).toContain('in-flight');
    const health = await request(app, '/health');
    expect(health.status).toBe(200);
    release();
    expect((await first).status).toBe(200);
    expect((await request(app, '/api/v1/slow-for-test')).status).toBe(200);
  });
});

describe('rate limit', () => {
  it('answers 429 rate-limited with retry_after and Retry-After per key and Context', async () => {
    const fixed = Date.UTC(2030, 0, 1, 12, 0, 10);
    const app = createMemoryApp({ rateLimit: { perMinute: 2, now: () => fixed } });
    const a = await createContext();
    const b = await createContext();
    expect((await request(app, `/api/v1/${a}/facts`)).status).toBe(200);
    expect((await request(app, `/api/v1/${a}/facts`)).status).toBe(200);
    const limited = await request(app, `/api/v1/${a}/facts`);
    const body = await expectProblem(limited, 429, 'rate-limited');
    expect(body.retry_after).toBe(50);
    expect(limited.headers.get('retry-after')).toBe('50');
    // Another Context is another bucket.
    expect((await request(app, `/api/v1/${b}/facts`)).status).toBe(200);
  });
});

describe('errors, request ids and CORS', () => {
  it('a 500 carries the request id in detail and in x-request-id', async () => {
    const boom: RouteModule = {
      name: 'boom',
      register(app) {
        app.get('/api/v1/boom-for-test', () => {
          throw new Error('database exploded');
        });
      },
    };
    const app = createMemoryApp({ routes: [boom] });
    const res = await request(app, '/api/v1/boom-for-test');
    const body = await expectProblem(res, 500, 'internal');
    const id = res.headers.get('x-request-id') ?? '';
    expect(id.length).toBeGreaterThan(0);
    expect(body.detail).toContain(id);
    expect(body.detail).not.toContain('exploded');
  });

  it('sets x-request-id on every memory response and keeps a well-formed incoming one', async () => {
    expect((await call('GET', '/health')).headers.get('x-request-id')).toBeTruthy();
    const res = await call('GET', '/api/v1/contexts/none-here', {
      headers: { 'x-request-id': 'client-chosen-id-123' },
    });
    expect(res.headers.get('x-request-id')).toBe('client-chosen-id-123');
  });

  it('CORS exposes Retry-After and x-request-id, and answers preflights without a key', async () => {
    const res = await call('GET', '/api/v1/contexts/none-here', {
      headers: { origin: 'https://app.example' },
    });
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    expect(exposed).toContain('retry-after');
    expect(exposed).toContain('x-request-id');
    const preflight = await call('OPTIONS', '/api/v1/contexts', {
      key: null,
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('uses ERROR_TYPE_BASE when configured', async () => {
    const app = createMemoryApp();
    const res = await app.request(
      `${ORIGIN}/api/v1/contexts`,
      { method: 'POST' },
      { ...env, ERROR_TYPE_BASE: 'https://errors.example/v1/' },
    );
    expect(res.status).toBe(401);
    expect(((await res.json()) as { type: string }).type).toBe(
      'https://errors.example/v1/unauthorized',
    );
  });
});

describe('GET /api/v1/openapi.json', () => {
  it('is generated from the route schemas, public, and lists the core operations', async () => {
    const res = await call('GET', '/api/v1/openapi.json', { key: null });
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    const ops = Object.values(doc.paths).flatMap((methods) =>
      Object.values(methods).map((m) => m.operationId),
    );
    for (const op of [
      'createContext',
      'getContext',
      'updateContext',
      'deleteContext',
      'createPrincipal',
      'createKey',
      'revokeKey',
      'createFact',
      'createFactsBatch',
      'getFact',
      'listFacts',
      'deleteFact',
      'queryMemory',
      'createSession',
      'listSessions',
      'getSession',
      'deleteSession',
      'appendTurn',
      'listTurns',
      'buildContext',
    ]) {
      expect(ops).toContain(op);
    }
    expect(doc.paths['/api/v1/{context_id}/query']).toBeDefined();
  });
});
