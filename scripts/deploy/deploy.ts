// `npm run deploy [-- --env <name>] [-- --config <file>]`: from a fresh clone to a running
// Worker on a Cloudflare account (after `npx wrangler login`): builds, finds or creates D1, R2,
// the queues and KV, writes their ids into the configuration, applies the D1 migrations, deploys
// with a new bootstrap key as a secret when the Worker has none, and prints the URLs.
// docs/self-hosting.md explains plans, environments and what each step needs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { unstable_readConfig } from 'wrangler';
import { deploy, DeployError, targetOf, type DeployIo } from './provision.ts';

const { values } = parseArgs({
  options: { env: { type: 'string' }, config: { type: 'string' } },
});
const configPath = values.config ?? 'wrangler.toml';
const config = unstable_readConfig({ config: configPath, env: values.env });

const target = targetOf(config);

const io: DeployIo = {
  run(command, args) {
    console.log(`$ ${command} ${args.join(' ')}`);
    const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
  },
  readConfig: () => readFileSync(configPath, 'utf8'),
  writeConfig: (text) => writeFileSync(configPath, text),
  writeSecrets(secrets) {
    const file = join(mkdtempSync(join(tmpdir(), 'engram-deploy-')), 'secrets.json');
    writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
    return file;
  },
  removeSecrets: (file) => rmSync(file, { force: true }),
  log: (line) => console.log(`deploy: ${line}`),
};

try {
  const outcome = deploy(io, { env: values.env, config: values.config }, target);
  console.log('');
  for (const url of outcome.urls) {
    console.log(`  ${url}            the site`);
    console.log(`  ${url}/health     liveness (?deep=1 probes D1, Durable Objects, R2)`);
    console.log(`  ${url}/api/v1     the memory API (openapi.json is public)`);
    console.log(`  ${url}/mcp        the MCP endpoint`);
  }
  if (outcome.bootstrapKey !== null) {
    console.log('');
    console.log(
      `  Bootstrap management key (shown once, stored as the MEMORY_BOOTSTRAP_KEY secret):`,
    );
    console.log(`  ${outcome.bootstrapKey}`);
  }
} catch (err) {
  if (!(err instanceof DeployError)) throw err;
  console.error(`npm run deploy: ${err.message}`);
  process.exit(1);
}
