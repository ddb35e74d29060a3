import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MemoryClient } from '../../sdk/js/src/index.ts';
import { PROMPTS } from '../../functions/memory/mcp/prompts.ts';
import { MCP_TOOLS } from '../../src/schemas/mcp-tools.ts';
import { provisionAgent } from '../support/provision.ts';

/**
 * Smoke test with the MCP Inspector's CLI mode (`inspector --cli <url> --method ...`), the tool
 * MCP users reach for first, against the real `wrangler dev`: it lists what the server offers.
 */
const base = inject('baseUrl');
const admin = new MemoryClient({ baseUrl: base, apiKey: inject('bootstrapKey') });
const CONTEXT = `e2e-inspector-${Date.now()}`;

let home = '';
let key = '';
let launcher = '';

beforeAll(async () => {
  // The Inspector keeps a server catalogue under $HOME; give it a throw-away one.
  home = await mkdtemp(join(tmpdir(), 'mcp-inspector-home-'));
  key = await provisionAgent(admin, CONTEXT, ['team:a']);
  const manifest = createRequire(import.meta.url).resolve(
    '@modelcontextprotocol/inspector/package.json',
  );
  const pkg = JSON.parse(await readFile(manifest, 'utf8')) as { bin: Record<string, string> };
  launcher = join(dirname(manifest), pkg.bin.inspector ?? '');
});

afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

function inspector(method: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const args = [launcher, '--cli', `${base}/mcp`, '--method', method];
    args.push('--header', `Authorization: Bearer ${key}`);
    const child = spawn(process.execPath, args, {
      env: { ...process.env, HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`inspector ${method} exited ${code}: ${err}${out}`));
      else resolve(JSON.parse(out) as Record<string, unknown>);
    });
  });
}

describe('MCP Inspector CLI', () => {
  it('lists the tools, resources, resource templates and prompts', async () => {
    const tools = (await inspector('tools/list')).tools as Array<{ name: string }>;
    expect(tools.map((t) => t.name).sort()).toEqual(MCP_TOOLS.map((t) => t.name).sort());
    const resources = (await inspector('resources/list')).resources as Array<{ uri: string }>;
    expect(resources.map((r) => r.uri)).toContain(`memory://${CONTEXT}/context`);
    const templates = (await inspector('resources/templates/list')).resourceTemplates as Array<{
      uriTemplate: string;
    }>;
    expect(templates).toHaveLength(4);
    const prompts = (await inspector('prompts/list')).prompts as Array<{ name: string }>;
    expect(prompts.map((p) => p.name)).toEqual(PROMPTS.map((p) => p.name));
  }, 120_000);
});
