import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ApiError, MemoryClient } from '../../sdk/js/src/index.ts';

// The "ten lines" quick starts of the SDK pages (content/docs/sdk/*.mdx), run exactly as
// written against the real `wrangler dev`: only the origin and the package location change.
const base = inject('baseUrl');
const admin = new MemoryClient({ baseUrl: base, apiKey: inject('bootstrapKey') });
const CONTEXT = 'support-bot';
let key = '';
let dir = '';

/** The first code block of a language after a heading of a docs page. */
async function quickStart(page: string, lang: string, heading = '## Ten lines'): Promise<string> {
  const text = await readFile(resolve('content/docs', page), 'utf8');
  const section = text.slice(text.indexOf(heading));
  const match = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section);
  expect(match, `${page} has a ${lang} quick start`).not.toBeNull();
  return (match?.[1] ?? '').replaceAll('http://127.0.0.1:8787', base);
}

function run(cmd: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((done, fail) => {
    const child = spawn(cmd, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', fail);
    child.once('exit', (code) => done({ code, output }));
  });
}

beforeAll(async () => {
  // Inside node_modules so that a snippet's package imports resolve as in a user's project.
  await mkdir(resolve('node_modules/.cache'), { recursive: true });
  dir = await mkdtemp(join(resolve('node_modules/.cache'), 'engram-quickstart-'));
  // The snippets name this Context; another suite may have created it in the same server.
  await admin.createContext(CONTEXT).catch((err: unknown) => {
    if (!(err instanceof ApiError && err.status === 409)) throw err;
  });
  const principal = await admin.createPrincipal({
    kind: 'agent',
    display_name: 'quickstart-agent',
  });
  const issued = await admin.createKey({
    principal_id: principal.id,
    context_id: CONTEXT,
    grants: {
      'memory:read': ['team:support'],
      'memory:write': ['team:support'],
      'memory:forget': [],
    },
  });
  key = issued.key;
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('SDK page quick starts run as written', () => {
  it('TypeScript: remember and recall in ten lines', async () => {
    const source = (await quickStart('sdk/typescript.mdx', 'ts')).replace(
      "from '@engram/memory'",
      `from '${resolve('sdk/js/src/index.ts')}'`,
    );
    // The snippet has no type annotations; the SDK source it imports is type-stripped by Node.
    const file = join(dir, 'quickstart.mjs');
    await writeFile(file, source);
    const { code, output } = await run(process.execPath, [file], { ENGRAM_KEY: key });
    expect(code, output).toBe(0);
    expect(output).toContain('Alice prefers answers in German.');
  });

  it('MCP page: the official client remembers and recalls', async () => {
    const file = join(dir, 'mcp-quickstart.mjs');
    await writeFile(file, await quickStart('mcp.mdx', 'ts', '## Connect with a bearer key'));
    const { code, output } = await run(process.execPath, [file], { KEY: key });
    expect(code, output).toBe(0);
    expect(output).toContain('Alice prefers answers in German.');
  });

  it('Python: remember and recall in ten lines', async () => {
    const file = join(dir, 'quickstart.py');
    await writeFile(file, await quickStart('sdk/python.mdx', 'python'));
    const { code, output } = await run('python3', [file], {
      ENGRAM_KEY: key,
      PYTHONPATH: resolve('sdk/python'),
      PYTHONDONTWRITEBYTECODE: '1',
    });
    expect(code, output).toBe(0);
    expect(output).toContain('Alice prefers answers in German.');
  });
});
