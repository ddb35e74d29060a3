import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MemoryClient } from '../../sdk/js/src/index.ts';
import { provisionAgent } from '../support/provision.ts';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, every server scenario
 * of its "all" suite) against the real `wrangler dev`, with a bearer key added to each request
 * by test/support/bearer-preload.ts. Scenarios that only test the suite's own fixtures are the
 * expected failures of mcp-conformance.baseline.yml; every other scenario must pass.
 */
const base = inject('baseUrl');
const admin = new MemoryClient({ baseUrl: base, apiKey: inject('bootstrapKey') });
const here = fileURLToPath(new URL('.', import.meta.url));
// The package has no `main`; its CLI is the one file of dist/.
const cli = join(
  createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json'),
  '../dist/index.js',
);
const preload = join(here, '../support/bearer-preload.ts');
const baseline = join(here, 'mcp-conformance.baseline.yml');

/** Scenarios that apply to this server (all seven generic ones first). */
const APPLICABLE = [
  'server-initialize',
  'ping',
  'tools-list',
  'logging-set-level',
  'resources-list',
  'prompts-list',
  'dns-rebinding-protection',
  'completion-complete',
  'resources-subscribe',
  'resources-unsubscribe',
];
/**
 * Scenarios that need an MCP session (SSE polling and resumption of one session's streams): a
 * stateless server issues no session id, which the suite reports as a warning, not a failure;
 * its baseline mode counts a scenario without a success as failed, so they are in the baseline.
 */
const SESSION_ONLY = ['server-sse-polling', 'server-sse-multiple-streams'];

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

let out = '';
let key = '';

function run(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: out,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

async function checksOf(scenario: string): Promise<Check[]> {
  const dirs = (await readdir(out)).filter((d) => d.startsWith(`server-${scenario}-`));
  expect(dirs, scenario).toHaveLength(1);
  return JSON.parse(await readFile(join(out, dirs[0] ?? '', 'checks.json'), 'utf8')) as Check[];
}

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'mcp-conformance-'));
  key = await provisionAgent(admin, `e2e-conformance-${Date.now()}`, ['*']);
});

afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

describe('MCP conformance suite', () => {
  it('knows every server scenario of the suite as applicable, session-only or baseline', async () => {
    const listed = await run([cli, 'list']);
    const section = listed.output.split('Client scenarios')[0] ?? '';
    const scenarios = [...section.matchAll(/^\s+- ([a-z0-9-]+)/gm)].map((m) => m[1]);
    const excluded = [...(await readFile(baseline, 'utf8')).matchAll(/^\s+- ([a-z0-9-]+)/gm)].map(
      (m) => m[1],
    );
    expect(scenarios.length).toBeGreaterThan(20);
    expect([...scenarios].sort()).toEqual([...APPLICABLE, ...excluded].sort());
    for (const scenario of SESSION_ONLY) expect(excluded).toContain(scenario);
  });

  it('passes every scenario that applies, with only the baseline failing', async () => {
    const result = await run(
      [
        '--import',
        preload,
        cli,
        'server',
        '--url',
        `${base}/mcp`,
        '--suite',
        'all',
        '--expected-failures',
        baseline,
        '--output-dir',
        out,
      ],
      { MCP_BEARER: key },
    );
    expect(result.code, result.output).toBe(0);
    for (const scenario of APPLICABLE) {
      const checks = await checksOf(scenario);
      expect(
        checks.filter((c) => c.status === 'FAILURE'),
        scenario,
      ).toEqual([]);
      expect(checks.filter((c) => c.status === 'SUCCESS').length, scenario).toBeGreaterThan(0);
    }
    expect((await checksOf('dns-rebinding-protection')).map((c) => c.status)).toEqual([
      'SUCCESS',
      'SUCCESS',
    ]);
    for (const scenario of SESSION_ONLY) {
      const checks = await checksOf(scenario);
      expect(
        checks.filter((c) => c.status === 'FAILURE'),
        scenario,
      ).toEqual([]);
    }
  }, 240_000);
});
