import { createExecutionContext, env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../functions/index.ts';

function incoming(url: string): Request<unknown, IncomingRequestCfProperties> {
  // The handler's type wants the cf object of an incoming request; these tests need none.
  return new Request(url) as Request<unknown, IncomingRequestCfProperties>;
}

// The Worker's HTTP surface follows ROLES: only a deployment with the api role serves the API
// and the site; every deployment answers /health.
describe('HTTP by role', () => {
  it('serves the API and the site with the api role', async () => {
    const res = await worker.fetch(
      incoming('https://engram.example/llms.txt'),
      { ...env, ROLES: 'api' },
      createExecutionContext(),
    );
    expect(res.status).toBe(200);
  });

  it('answers 404 problem for anything but /health without the api role', async () => {
    const res = await worker.fetch(
      incoming('https://engram.example/api/v1/contexts'),
      { ...env, ROLES: 'worker' },
      createExecutionContext(),
    );
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = await res.json<{ type: string; detail: string }>();
    expect(body.type).toBe('https://engram.example/errors/not-found');
    expect(body.detail).toContain('api role');
  });

  it('answers /health in every role', async () => {
    const res = await worker.fetch(
      incoming('https://engram.example/health'),
      { ...env, ROLES: 'scheduler' },
      createExecutionContext(),
    );
    expect(res.status).toBe(200);
  });
});
