import { describe, expect, it } from 'vitest';
import { checkOrigin, configuredOrigins, type OriginPolicy } from './origin-guard.ts';

const policy: OriginPolicy = {
  siteUrl: 'https://engram.example',
  allowedOrigins: 'https://agent.example.org, http://tools.internal:8080 ,not a url',
};

function request(headers: Record<string, string>): Request {
  return new Request('https://engram.example/mcp', { method: 'POST', headers });
}

describe('MCP origin policy', () => {
  it('reads the own origin and the allow-list, skipping what is not an origin', () => {
    expect([...configuredOrigins(policy)]).toEqual([
      'https://engram.example',
      'https://agent.example.org',
      'http://tools.internal:8080',
    ]);
  });

  it.each([
    ['no Origin, no Host', {}, true],
    ['no Origin, own Host', { host: 'engram.example' }, true],
    ['own Origin', { host: 'engram.example', origin: 'https://engram.example' }, true],
    ['allow-listed Origin', { host: 'engram.example', origin: 'https://agent.example.org' }, true],
    ['allow-listed Host', { host: 'tools.internal:8080' }, true],
    ['foreign Origin', { host: 'engram.example', origin: 'https://evil.example.com' }, false],
    ['foreign Host', { host: 'evil.example.com' }, false],
    [
      'foreign Host and Origin',
      { host: 'evil.example.com', origin: 'http://evil.example.com' },
      false,
    ],
    ['same host, other scheme', { host: 'engram.example', origin: 'http://engram.example' }, true],
    ['Origin "null"', { host: 'engram.example', origin: 'null' }, false],
    [
      'loopback Origin, public Host',
      { host: 'engram.example', origin: 'http://localhost:3000' },
      false,
    ],
    [
      'loopback Origin, loopback Host',
      { host: '127.0.0.1:8787', origin: 'http://localhost:3000' },
      true,
    ],
    ['IPv6 loopback', { host: '[::1]:8787', origin: 'http://[::1]:8787' }, true],
    ['lookalike of loopback', { host: 'localhost.evil.com' }, false],
    ['loopback Origin, no Host, public URL', { origin: 'http://localhost:3000' }, false],
  ] as const)('%s', (_, headers, ok) => {
    expect(checkOrigin(request(headers), policy).ok).toBe(ok);
  });

  it('takes the URL as the host of an in-process call without Host', () => {
    const local = new Request('http://127.0.0.1:8787/mcp', {
      method: 'POST',
      headers: { origin: 'http://localhost:6274' },
    });
    expect(checkOrigin(local, policy).ok).toBe(true);
  });

  it('names the allowed origin for CORS, and none without an Origin', () => {
    const allowed = checkOrigin(
      request({ host: 'engram.example', origin: 'https://agent.example.org' }),
      policy,
    );
    expect(allowed).toEqual({ ok: true, corsOrigin: 'https://agent.example.org' });
    expect(checkOrigin(request({}), policy)).toEqual({ ok: true, corsOrigin: null });
  });
});
