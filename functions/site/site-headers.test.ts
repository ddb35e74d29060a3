import { describe, expect, it } from 'vitest';
import {
  discoveryLink,
  documentContentType,
  isCorsPath,
  preflightResponse,
  setTokenHeaders,
  varyOnAccept,
} from './site-headers.ts';

describe('site response headers', () => {
  it('builds the discovery Link header of a page', () => {
    expect(discoveryLink('/index.md')).toBe(
      '</openapi.json>; rel="service-desc", </.well-known/api-catalog>; rel="api-catalog", ' +
        '</llms.txt>; rel="describedby", </index.md>; rel="alternate"; type="text/markdown"',
    );
  });

  it.each([
    ['/llms.txt', 'text/plain; charset=utf-8'],
    ['/llms-full.txt', 'text/plain; charset=utf-8'],
    ['/sitemap.xml', 'application/xml'],
    ['/sitemap-learn.xml', 'application/xml'],
    ['/openapi.json', 'application/json'],
    ['/.well-known/ai-catalog.json', 'application/json'],
    ['/.well-known/api-catalog', 'application/linkset+json'],
    ['/.well-known/agent-skills/x/SKILL.md', 'text/markdown; charset=utf-8'],
    ['/api/cloud/pricing.json', 'application/json'],
    ['/pricing', null],
    ['/favicon.svg', null],
  ])('%s is served as %s', (path, type) => {
    expect(documentContentType(path)).toBe(type);
  });

  it('limits CORS to machine-readable paths', () => {
    for (const path of ['/pricing.md', '/llms.txt', '/sitemap.xml', '/.well-known/x', '/api/x']) {
      expect(isCorsPath(path)).toBe(true);
    }
    for (const path of ['/pricing', '/', '/favicon.svg']) expect(isCorsPath(path)).toBe(false);
  });

  it('adds Accept to Vary once, keeping what was there', () => {
    const headers = new Headers({ vary: 'Accept-Encoding' });
    varyOnAccept(headers);
    varyOnAccept(headers);
    expect(headers.get('vary')).toBe('Accept-Encoding, Accept');
  });

  it('sets token headers only when the manifest knows the twin', () => {
    const headers = new Headers();
    setTokenHeaders(headers, undefined);
    expect(headers.has('x-markdown-tokens')).toBe(false);
  });

  it('answers a preflight with the allowed methods and echoes the requested headers', () => {
    const res = preflightResponse('if-none-match');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('if-none-match');
  });
});
