// `npm start`: everything a fresh clone needs to serve the site and the memory API locally.
// 1. keep or create MEMORY_BOOTSTRAP_KEY in .dev.vars, 2. refuse settings the Worker would refuse
// (wrangler.toml [vars] overlaid with .dev.vars, parsed by functions/config/settings.ts), 3. build
// the site, 4. apply the local D1 migrations, 5. run `wrangler dev` on 127.0.0.1:${PORT:-8787}
// with local D1/DO/R2/Queues, 6. once /health answers, print what to do next.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { unstable_readConfig } from 'wrangler';
import { describeInvalid, parseSettings } from '../functions/config/settings.ts';

const DEV_VARS = '.dev.vars';

function fail(lines: string): never {
  for (const line of lines.split('\n')) console.error(`npm start: ${line}`);
  process.exit(1);
}

function ensureBootstrapKey(): void {
  const text = existsSync(DEV_VARS) ? readFileSync(DEV_VARS, 'utf8') : '';
  if ('MEMORY_BOOTSTRAP_KEY' in parseEnv(text)) return;
  const key = `mem_management_${randomBytes(24).toString('hex')}`;
  const sep = text === '' || text.endsWith('\n') ? '' : '\n';
  writeFileSync(DEV_VARS, `${text}${sep}MEMORY_BOOTSTRAP_KEY="${key}"\n`);
}

/** The vars `wrangler dev` will hand the Worker: wrangler.toml's [vars], then .dev.vars on top. */
function effectiveVars(): Record<string, unknown> {
  const config = unstable_readConfig({ config: 'wrangler.toml' });
  const devVars = existsSync(DEV_VARS) ? parseEnv(readFileSync(DEV_VARS, 'utf8')) : {};
  return { ...config.vars, ...devVars };
}

function port(): string {
  const value = process.env.PORT ?? '8787';
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n < 1 || n > 65535) {
    fail(`PORT must be a TCP port number from 1 to 65535, not ${JSON.stringify(value)}`);
  }
  return value;
}

function step(cmd: string, args: string[]): void {
  const result = spawnSync(cmd, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

async function waitForHealth(base: string, exited: () => boolean): Promise<Response | null> {
  for (;;) {
    if (exited()) return null;
    try {
      return await fetch(`${base}/health`);
    } catch {
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}

function nextSteps(base: string, key: string): string {
  const body = `'{"id":"my-first-context"}'`;
  return [
    '',
    'Ready. What to do next:',
    `  Site                  ${base}/`,
    `  Docs                  ${base}/docs`,
    `  Console               ${base}/console   (sign in with the management key below)`,
    `  MCP (streamable HTTP) ${base}/mcp   with  Authorization: Bearer <key>`,
    `  Management key        ${key}   (kept in ${DEV_VARS})`,
    '',
    '  Create your first Context:',
    `  curl -s -X POST ${base}/api/v1/contexts -H "authorization: Bearer ${key}" -H 'content-type: application/json' -d ${body}`,
    '',
    '  Then add keys, facts and queries as the README shows (Try it). Ctrl-C stops the server.',
    '',
  ].join('\n');
}

ensureBootstrapKey();
const vars = effectiveVars();
const checked = parseSettings(vars);
if (!checked.ok) fail(describeInvalid(checked.invalid));
const key = String(vars.MEMORY_BOOTSTRAP_KEY);
const listen = port();
step('astro', ['build']);
step('wrangler', ['d1', 'migrations', 'apply', 'memory-control', '--local']);

const base = `http://127.0.0.1:${listen}`;
const dev = spawn('wrangler', ['dev', '--ip', '127.0.0.1', '--port', listen], { stdio: 'inherit' });
let exitCode: number | null = null;
dev.once('exit', (code) => {
  exitCode = code ?? 1;
  process.exit(exitCode);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => dev.kill(signal));

const health = await waitForHealth(base, () => exitCode !== null);
if (health !== null && health.ok) console.log(nextSteps(base, key));
else if (health !== null) {
  console.error(`npm start: ${base}/health answered ${health.status}: ${await health.text()}`);
}
