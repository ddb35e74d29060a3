// `npm start`: everything a fresh clone needs to serve the site and the memory API locally.
// 1. keep or create MEMORY_BOOTSTRAP_KEY in .dev.vars, 2. build the site, 3. apply the local D1
// migrations, 4. run `wrangler dev` on 127.0.0.1:${PORT:-8787} with local D1/DO/R2/Queues.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const DEV_VARS = '.dev.vars';

function ensureBootstrapKey(): string {
  const text = existsSync(DEV_VARS) ? readFileSync(DEV_VARS, 'utf8') : '';
  const found = /^MEMORY_BOOTSTRAP_KEY\s*=\s*"?([^"\n]+)"?/m.exec(text);
  if (found?.[1]) return found[1];
  const key = `mem_management_${randomBytes(24).toString('hex')}`;
  const sep = text === '' || text.endsWith('\n') ? '' : '\n';
  writeFileSync(DEV_VARS, `${text}${sep}MEMORY_BOOTSTRAP_KEY="${key}"\n`);
  return key;
}

function step(cmd: string, args: string[]): void {
  const result = spawnSync(cmd, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const key = ensureBootstrapKey();
const port = process.env.PORT ?? '8787';
step('astro', ['build']);
step('wrangler', ['d1', 'migrations', 'apply', 'memory-control', '--local']);
console.log(`\nManagement key (from ${DEV_VARS}): ${key}`);
console.log(`Site and memory API: http://127.0.0.1:${port}\n`);
step('wrangler', ['dev', '--ip', '127.0.0.1', '--port', port]);
