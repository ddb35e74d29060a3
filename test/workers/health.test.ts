import { createExecutionContext, env } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../functions/index.ts';

function incoming(url: string): Request<unknown, IncomingRequestCfProperties> {
  // The handler's type wants the cf object of an incoming request; these tests need none.
  return new Request(url) as Request<unknown, IncomingRequestCfProperties>;
}

describe('GET /health', () => {
  it('answers 200 with status ok, uncached', async () => {
    const res = await exports.default.fetch('http://example.com/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('probes D1, Durable Objects and R2 only when asked with ?deep=1', async () => {
    const res = await exports.default.fetch('http://example.com/health?deep=1');
    expect(res.status).toBe(200);
    const body = await res.json<{ status: string; checks: Record<string, { status: string }> }>();
    expect(body.status).toBe('ok');
    expect(Object.keys(body.checks).sort()).toEqual(['d1', 'durable_objects', 'r2']);
    for (const check of Object.values(body.checks)) expect(check.status).toBe('ok');
  });

  it('reports a failing store with 503 and the check that failed', async () => {
    const brokenDb = {
      prepare: () => {
        throw new Error('D1 is unreachable');
      },
    } as unknown as D1Database;
    const res = await worker.fetch(
      incoming('https://engram.example/health?deep=1'),
      { ...env, DB: brokenDb },
      createExecutionContext(),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = await res.json<{
      detail: string;
      checks: Record<string, { status: string; detail?: string }>;
    }>();
    expect(body.detail).toContain('d1');
    expect(body.checks.d1).toMatchObject({ status: 'failing', detail: 'D1 is unreachable' });
    expect(body.checks.r2?.status).toBe('ok');
  });

  it('answers 503 misconfigured naming the bad settings instead of ok, and so does every route', async () => {
    const badEnv = {
      ...env,
      MEMORY_BOOTSTRAP_KEY: 'mem_management_tooshort',
      MAX_IN_FLIGHT: 'lots',
    };
    for (const path of ['/health', '/api/v1/contexts', '/']) {
      const res = await worker.fetch(
        incoming(`https://engram.example${path}`),
        badEnv,
        createExecutionContext(),
      );
      expect(res.status, path).toBe(503);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const body = await res.json<{
        type: string;
        detail: string;
        invalid_settings: { name: string; problem: string }[];
      }>();
      expect(body.type).toBe('https://engram.example/errors/misconfigured');
      expect(body.invalid_settings.map((s) => s.name).sort()).toEqual([
        'MAX_IN_FLIGHT',
        'MEMORY_BOOTSTRAP_KEY',
      ]);
      expect(body.detail).toContain('mem_management_ followed by 20 to 128 characters');
      // The refused secret itself is never echoed.
      expect(JSON.stringify(body)).not.toContain('tooshort');
    }
  });

  it('serves the prebuilt homepage through the ASSETS binding', async () => {
    const res = await exports.default.fetch('http://example.com/');
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/<h1[^>]*>Engram/);
  });
});
