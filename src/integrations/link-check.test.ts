import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  candidateFiles,
  checkLinks,
  isWorkerRoute,
  urlsInJson,
  urlsInMarkdown,
  urlsInXml,
} from './link-check.ts';

const ORIGIN = 'https://engram.example';

function fakeDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'link-check-'));
  mkdirSync(join(dir, 'docs'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '');
  writeFileSync(join(dir, 'docs.html'), '');
  writeFileSync(join(dir, 'docs/mcp.md'), '');
  return dir;
}

describe('checkLinks', () => {
  const dir = fakeDist();
  const none = (): boolean => false;

  it('passes pages, twins, pending files, Worker routes and other origins', () => {
    expect(() =>
      checkLinks(ORIGIN, dir, (p) => p === '/llms.txt', [
        {
          document: '/llms.txt',
          urls: [
            `${ORIGIN}/`,
            `${ORIGIN}/docs`,
            `${ORIGIN}/docs/mcp.md`,
            `${ORIGIN}/llms.txt`,
            `${ORIGIN}/api/v1/openapi.json`,
            `${ORIGIN}/mcp`,
            `${ORIGIN}/health`,
            `${ORIGIN}/.well-known/oauth-protected-resource`,
            'https://other.example/nowhere',
          ],
        },
      ]),
    ).not.toThrow();
  });

  it('fails naming every dangling link and its document', () => {
    expect(() =>
      checkLinks(ORIGIN, dir, none, [
        { document: '/sitemap-docs.xml', urls: [`${ORIGIN}/docs/missing`] },
        { document: '/openapi.json', urls: [`${ORIGIN}/mcp/extra`, `${ORIGIN}/docs`] },
      ]),
    ).toThrow(
      /\/sitemap-docs\.xml: https:\/\/engram\.example\/docs\/missing points to nothing[\s\S]*\/openapi\.json: https:\/\/engram\.example\/mcp\/extra/,
    );
  });
});

describe('helpers', () => {
  it('maps a URL path to the files the Worker would serve', () => {
    expect(candidateFiles('/')).toEqual(['index.html']);
    expect(candidateFiles('/pricing')).toEqual(['pricing', 'pricing.html', 'pricing/index.html']);
  });

  it('knows the Worker routes and nothing else', () => {
    expect(isWorkerRoute('/api/v1/contexts')).toBe(true);
    expect(isWorkerRoute('/api/v1')).toBe(true);
    expect(isWorkerRoute('/api/cloud/pricing.json')).toBe(false);
    expect(isWorkerRoute('/mcp')).toBe(true);
    expect(isWorkerRoute('/.well-known/oauth-authorization-server')).toBe(true);
    expect(isWorkerRoute('/.well-known/agent-card.json')).toBe(false);
  });

  it('extracts URLs from JSON, markdown link lists and sitemaps', () => {
    expect(
      urlsInJson({ a: ['https://x.example/1', 'no'], b: { c: 'http://y.example' }, d: 3 }),
    ).toEqual(['https://x.example/1', 'http://y.example']);
    expect(urlsInMarkdown('- [A](https://x.example/a.md): note\n- [B](/rel)')).toEqual([
      'https://x.example/a.md',
    ]);
    expect(urlsInXml('<url><loc>https://x.example/</loc></url>')).toEqual(['https://x.example/']);
  });
});
