import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateCatalogue } from '../../src/lib/load-catalogue.ts';
import { MCP_TOOLS } from '../../src/schemas/mcp-tools.ts';
import { CONTENT, DIST, distFiles, read, readJson, SITE } from './dist.ts';

/** Routes the Worker serves itself (memory service, MCP, OAuth): not files in dist/. */
const WORKER = [
  /^\/api\/v1(\/.*)?$/,
  /^\/mcp$/,
  /^\/health$/,
  /^\/\.well-known\/oauth-[a-z-]+$/,
  /^\/oauth\/(authorize|token|register)$/,
];

function resolves(url: string): boolean {
  const { pathname } = new URL(url);
  if (WORKER.some((r) => r.test(pathname))) return true;
  if (pathname === '/') return existsSync(join(DIST, 'index.html'));
  const rel = pathname.slice(1);
  return [rel, `${rel}.html`].some((f) => existsSync(join(DIST, f)));
}

function jsonUrls(value: unknown): string[] {
  if (typeof value === 'string') return /^https?:\/\//.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(jsonUrls);
  if (value && typeof value === 'object') return Object.values(value).flatMap(jsonUrls);
  return [];
}

const WELL_KNOWN = [
  '.well-known/mcp/server-card.json',
  '.well-known/agent-card.json',
  '.well-known/ai-catalog.json',
  '.well-known/agent-skills/index.json',
  '.well-known/api-catalog',
];

describe('every URL in every index and discovery document resolves', () => {
  const docs: [string, string[]][] = [
    [
      'llms.txt',
      [...read('llms.txt').matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map((m) => m[1] ?? ''),
    ],
    ...distFiles()
      .filter((f) => /^sitemap.*\.xml$/.test(f))
      .map((f): [string, string[]] => [
        f,
        [...read(f).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? ''),
      ]),
    ['openapi.json', jsonUrls(readJson('openapi.json'))],
    ...WELL_KNOWN.map((f): [string, string[]] => [f, jsonUrls(readJson(f))]),
  ];

  for (const [doc, urls] of docs) {
    it(`${doc}`, () => {
      expect(urls.length, doc).toBeGreaterThan(0);
      const internal = urls.filter((u) => u.startsWith(`${SITE}/`) || u === SITE);
      for (const url of internal) expect(resolves(url), `${doc} -> ${url}`).toBe(true);
    });
  }

  it('openapi.json concrete paths are files in dist/', () => {
    const { paths } = readJson<{ paths: Record<string, unknown> }>('openapi.json');
    for (const p of Object.keys(paths).filter((p) => !p.includes('{'))) {
      expect(resolves(`${SITE}${p}`), p).toBe(true);
    }
  });
});

describe('agent skills', () => {
  const index = readJson<{
    $schema: string;
    skills: { name: string; type: string; description: string; url: string; digest: string }[];
  }>('.well-known/agent-skills/index.json');

  it('uses the agent-skills discovery 0.2.0 schema and lists at least two skills', () => {
    expect(index.$schema).toBe('https://schemas.agentskills.io/discovery/0.2.0/schema.json');
    expect(index.skills.length).toBeGreaterThanOrEqual(2);
  });

  it('digests are sha256 of the exact bytes served, which are the authored files', () => {
    for (const s of index.skills) {
      expect(s.type).toBe('skill-md');
      expect(s.description.length).toBeGreaterThan(0);
      expect(s.url).toBe(`${SITE}/.well-known/agent-skills/${s.name}/SKILL.md`);
      const served = readFileSync(join(DIST, new URL(s.url).pathname));
      expect(s.digest).toBe(`sha256:${createHash('sha256').update(served).digest('hex')}`);
      expect(served.equals(readFileSync(`${CONTENT}/skills/${s.name}/SKILL.md`))).toBe(true);
    }
  });
});

describe('api-catalog (RFC 9727)', () => {
  const catalog = readJson<{ linkset: Record<string, unknown>[] }>('.well-known/api-catalog');

  it('is a linkset anchored at the origin with service-desc, service-doc and status', () => {
    expect(catalog.linkset).toHaveLength(1);
    const [set] = catalog.linkset;
    expect(set?.anchor).toBe(`${SITE}/`);
    expect(set?.['service-desc']).toEqual(
      expect.arrayContaining([
        { href: `${SITE}/openapi.json`, type: 'application/json' },
        { href: `${SITE}/api/v1/openapi.json`, type: 'application/json' },
      ]),
    );
    expect((set?.['service-doc'] as unknown[]).length).toBeGreaterThan(0);
    expect(set?.status).toEqual([{ href: `${SITE}/health`, type: 'application/json' }]);
  });

  it('types each documentation link by what it serves', () => {
    const docs = catalog.linkset[0]?.['service-doc'] as { href: string; type: string }[];
    for (const { href, type } of docs) {
      const expected = href.endsWith('.txt')
        ? 'text/plain'
        : href.endsWith('.md')
          ? 'text/markdown'
          : 'text/html';
      expect(type, href).toBe(expected);
    }
  });
});

describe('cards', () => {
  it('MCP server card: streamable HTTP at /mcp, docs, key or OAuth, the tools', () => {
    const card = readJson<Record<string, unknown>>('.well-known/mcp/server-card.json');
    expect(card).toMatchObject({
      name: expect.any(String),
      version: expect.any(String),
      description: expect.any(String),
      transport: { type: 'streamable-http', endpoint: `${SITE}/mcp` },
      documentationUrl: expect.stringMatching(new RegExp(`^${SITE}/`)),
      authentication: { required: true },
    });
    expect(JSON.stringify(card.authentication)).toContain(
      `${SITE}/.well-known/oauth-protected-resource`,
    );
    expect(JSON.stringify(card.authentication)).toContain('bearer');
    expect((card.tools as { name: string }[]).map((t) => t.name)).toEqual(
      MCP_TOOLS.map((t) => t.name),
    );
  });

  it('A2A agent card: interfaces, capabilities, modes, security schemes, memory skills', () => {
    const card = readJson<Record<string, unknown>>('.well-known/agent-card.json');
    for (const key of [
      'name',
      'description',
      'version',
      'url',
      'supportedInterfaces',
      'capabilities',
    ]) {
      expect(card[key], key).toBeDefined();
    }
    expect(card.defaultInputModes).toEqual(expect.arrayContaining(['application/json']));
    expect(card.defaultOutputModes).toEqual(expect.arrayContaining(['application/json']));
    expect(Object.keys(card.securitySchemes as object).sort()).toEqual(['bearer', 'oauth2']);
    const skills = (card.skills as { id: string }[]).map((s) => s.id);
    for (const tool of ['remember', 'recall', 'forget', 'chat']) expect(skills).toContain(tool);
  });

  it('AI catalogue: host, urn:air ids, media types and 2-5 queries per entry', () => {
    const cat = readJson<{
      specVersion: string;
      host: { domain: string };
      entries: { id: string; url: string; mediaType: string; queries: string[] }[];
    }>('.well-known/ai-catalog.json');
    const domain = new URL(SITE).hostname;
    expect(cat.specVersion).toBeTruthy();
    expect(cat.host.domain).toBe(domain);
    const names = cat.entries.map((e) => e.id.split(':').at(-1));
    expect(names).toEqual(
      expect.arrayContaining([
        'pricing-catalogue',
        'llms-txt',
        'openapi',
        'memory-api',
        'mcp-server',
        'docs',
      ]),
    );
    for (const e of cat.entries) {
      expect(e.id).toMatch(
        new RegExp(`^urn:air:${domain.replace(/\./g, '\\.')}:[a-z-]+:[a-z0-9-]+$`),
      );
      expect(e.mediaType).toMatch(/^[a-z]+\/[a-z0-9.+-]+$/);
      expect(e.queries.length).toBeGreaterThanOrEqual(2);
      expect(e.queries.length).toBeLessThanOrEqual(5);
    }
  });
});

describe('/api/cloud/pricing.json', () => {
  it('equals the catalogue source after validation', () => {
    const file = `${CONTENT}/pricing/catalogue.json`;
    const source: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const { catalogue } = validateCatalogue(source, file, () => '');
    expect(readJson('api/cloud/pricing.json')).toEqual(catalogue);
    expect(catalogue).toEqual(source);
  });
});
