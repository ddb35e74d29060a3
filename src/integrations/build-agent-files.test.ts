import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildAgentFiles } from './build-agent-files.ts';

const SITE = 'https://engram.example';

function html(title: string, main: string, lastmod = '2026-05-01'): string {
  return `<!doctype html><html><head><title>${title}</title><meta name="description" content="About ${title}"><meta name="engram:title" content="${title}"><meta name="engram:lastmod" content="${lastmod}"></head><body><nav><a href="/">Home</a></nav><main>${main}</main><footer>f</footer></body></html>`;
}

/** A tiny dist/ and content/ pair, as Astro would leave them before the integration runs. */
function fixture(pages: Record<string, string>): { outDir: string; contentRoot: string } {
  const root = mkdtempSync(join(tmpdir(), 'agent-build-'));
  const outDir = join(root, 'dist');
  const contentRoot = join(root, 'content');
  for (const [file, body] of Object.entries(pages)) {
    mkdirSync(join(outDir, file, '..'), { recursive: true });
    writeFileSync(join(outDir, file), body);
  }
  writeFileSync(
    join(outDir, 'robots.txt'),
    'User-agent: *\nSitemap: https://x.example/sitemap.xml\n',
  );
  mkdirSync(join(contentRoot, 'pricing'), { recursive: true });
  cpSync('test/build/fixtures/pricing-catalogue.json', join(contentRoot, 'pricing/catalogue.json'));
  mkdirSync(join(contentRoot, 'skills/demo-skill'), { recursive: true });
  writeFileSync(
    join(contentRoot, 'skills/demo-skill/SKILL.md'),
    '---\nname: demo-skill\ndescription: Demo.\n---\n# Demo\n',
  );
  return { outDir, contentRoot };
}

const GOOD = {
  'index.html': html('Engram', '<h1>Engram</h1><p>Home</p>', '2026-04-01'),
  'auth.html': html('Auth', '<h1>Auth</h1><p>Keys</p>'),
  'pricing.html': html('Pricing', '<h1>Pricing</h1><p>Plans</p>'),
  'docs.html': html('Docs', '<h1>Docs</h1><p><a href="docs/mcp">MCP</a></p>', '2026-06-01'),
  'docs/mcp.html': html('MCP', '<h1>MCP</h1>'),
};

describe('buildAgentFiles', () => {
  it('writes twins, manifest, indexes and discovery documents for a valid site', async () => {
    const f = fixture(GOOD);
    const summary = await buildAgentFiles({ ...f, site: SITE });
    expect(summary.pages).toBe(5);
    const read = (p: string): string => readFileSync(join(f.outDir, p), 'utf8');
    expect(read('index.md')).toBe('# Engram\n\nHome\n');
    expect(read('docs.md')).toBe('# Docs\n\n[MCP](/docs/mcp)\n');
    expect(read('robots.txt')).toContain(`Sitemap: ${SITE}/sitemap.xml`);
    expect(JSON.parse(read('_agent/manifest.json')).pages['/docs/mcp'].lastmod).toBe('2026-05-01');
    expect(read('sitemap-docs.xml')).toContain('<lastmod>2026-06-01</lastmod>');
    const card = JSON.parse(read('.well-known/mcp/server-card.json'));
    expect(card.documentationUrl).toBe(`${SITE}/docs/mcp`);
    expect(read('.well-known/agent-skills/demo-skill/SKILL.md')).toContain('# Demo');
    for (const p of ['llms.txt', 'llms-full.txt', 'openapi.json', 'api/cloud/pricing.json']) {
      expect(existsSync(join(f.outDir, p)), p).toBe(true);
    }
  });

  it('fails naming the page whose twin lacks its H1, and writes nothing', async () => {
    const f = fixture({ ...GOOD, 'docs/mcp.html': html('MCP', '<h2>MCP</h2>') });
    await expect(buildAgentFiles({ ...f, site: SITE })).rejects.toThrow(
      /Twin \/docs\/mcp\.md of page \/docs\/mcp must begin with a level-one heading/,
    );
    expect(existsSync(join(f.outDir, 'llms.txt'))).toBe(false);
    expect(existsSync(join(f.outDir, 'index.md'))).toBe(false);
  });

  it('fails for a page deeper than four segments', async () => {
    const f = fixture({ ...GOOD, 'learn/a/b/c/d.html': html('Deep', '<h1>Deep</h1>') });
    await expect(buildAgentFiles({ ...f, site: SITE })).rejects.toThrow(/has 5 path segments/);
  });

  it('fails without /auth, saying which file to write', async () => {
    const { 'auth.html': _auth, ...rest } = GOOD;
    const f = fixture(rest);
    await expect(buildAgentFiles({ ...f, site: SITE })).rejects.toThrow(
      /Page \/auth is missing[\s\S]*pages\/auth\.mdx/,
    );
  });

  it('fails on a catalogue that breaks the schema, naming file, path and rule', async () => {
    const f = fixture(GOOD);
    const file = join(f.contentRoot, 'pricing/catalogue.json');
    const cat = JSON.parse(readFileSync(file, 'utf8'));
    cat.selfHosted[0].cta.href = '/contact';
    writeFileSync(file, JSON.stringify(cat));
    await expect(buildAgentFiles({ ...f, site: SITE })).rejects.toThrow(
      /catalogue\.json: selfHosted\[0\]\.cta\.href: cta\.href must be absent when variant is "disabled"/,
    );
  });

  it('fails for a page without the layout metadata', async () => {
    const f = fixture({ ...GOOD, 'bare.html': '<html><main><h1>Bare</h1></main></html>' });
    await expect(buildAgentFiles({ ...f, site: SITE })).rejects.toThrow(
      /bare\.html: missing <meta name="engram:title">/,
    );
  });
});
