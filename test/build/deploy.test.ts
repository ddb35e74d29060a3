import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { unstable_readConfig } from 'wrangler';
import {
  deploy,
  DeployError,
  targetOf,
  type DeployIo,
  type RunResult,
} from '../../scripts/deploy/provision.ts';

// `npm run deploy` cannot reach Cloudflare from a test: its logic runs here against a fake
// `wrangler` that plays an account, fresh or already provisioned, and records every command.
const CONFIG = readFileSync('wrangler.toml', 'utf8');
const D1_ID = '4f1a2b3c-0d9e-4a8b-9c7d-112233445566';
const KV_ID = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

interface Account {
  d1: { name: string; uuid: string }[];
  buckets: string[];
  queues: string[];
  kv: { id: string; title: string }[];
  secrets: string[] | 'no worker' | 'auth error';
}

function fakeIo(account: Account) {
  const commands: string[] = [];
  const logs: string[] = [];
  let config = CONFIG;
  let written = false;
  const secretFiles = new Map<string, Record<string, string>>();
  const removed: string[] = [];
  const ok = (stdout: string): RunResult => ({ status: 0, stdout, stderr: '' });
  const io: DeployIo = {
    run(command, args) {
      const line = [command, ...args].join(' ');
      commands.push(line);
      if (command === 'npm') return ok('built');
      const [, group, verb, third] = args;
      if (group === 'd1' && verb === 'list') return ok(JSON.stringify(account.d1));
      if (group === 'd1' && verb === 'create') {
        account.d1.push({ name: third ?? '', uuid: D1_ID });
        return ok(`✅ Successfully created DB '${third}'\n{ "database_id": "${D1_ID}" }`);
      }
      if (group === 'd1' && verb === 'migrations') return ok('applied');
      if (group === 'r2' && third === 'list')
        return ok(account.buckets.map((b) => `name:           ${b}\ncreation_date:  x`).join('\n'));
      if (group === 'r2' && third === 'create') return ok('created');
      if (group === 'queues' && verb === 'list')
        return ok(account.queues.map((q) => `│ id │ ${q} │ 1 │`).join('\n'));
      if (group === 'queues' && verb === 'create') return ok('created');
      if (group === 'kv' && third === 'list') return ok(JSON.stringify(account.kv));
      if (group === 'kv' && third === 'create') {
        account.kv.push({ id: KV_ID, title: args[4] ?? '' });
        return ok('created');
      }
      if (group === 'secret') {
        if (account.secrets === 'no worker')
          return {
            status: 1,
            stdout: '',
            stderr: 'This Worker does not exist on your account. [code: 10007]',
          };
        if (account.secrets === 'auth error')
          return { status: 1, stdout: '', stderr: 'Authentication error [code: 10000]' };
        return ok(JSON.stringify(account.secrets.map((name) => ({ name, type: 'secret_text' }))));
      }
      if (group === 'deploy')
        return ok(
          'Uploaded agent-ready-edge\nDeployed agent-ready-edge triggers\n  https://agent-ready-edge.acme.workers.dev\nCurrent Version ID: 1',
        );
      return { status: 1, stdout: '', stderr: `fake wrangler: unexpected ${line}` };
    },
    readConfig: () => config,
    writeConfig(text) {
      config = text;
      written = true;
    },
    writeSecrets(secrets) {
      const path = `/tmp/secrets-${secretFiles.size}.json`;
      secretFiles.set(path, secrets);
      return path;
    },
    removeSecrets: (path) => removed.push(path),
    log: (line) => logs.push(line),
  };
  return { io, commands, logs, secretFiles, removed, config: () => config, written: () => written };
}

const target = targetOf(unstable_readConfig({ config: 'wrangler.toml' }));
const fresh = (): Account => ({ d1: [], buckets: [], queues: [], kv: [], secrets: 'no worker' });

describe('npm run deploy (scripts/deploy/provision.ts)', () => {
  it('reads every resource the configuration binds', () => {
    expect(target.d1.map((d) => d.name)).toEqual(['memory-control']);
    expect(target.buckets).toEqual(['memory-blobs']);
    expect(target.queues).toEqual(['memory-jobs', 'memory-jobs-dlq']);
    expect(target.kv.map((k) => k.binding)).toEqual(['OAUTH_KV']);
  });

  it('on a fresh account: creates everything, writes the ids, migrates, deploys with a new key', () => {
    const fake = fakeIo(fresh());
    const outcome = deploy(fake.io, { env: undefined, config: undefined }, target);
    const creates = fake.commands.filter((c) => / create /.test(c));
    expect(creates).toEqual([
      'npx wrangler d1 create memory-control',
      'npx wrangler r2 bucket create memory-blobs',
      'npx wrangler queues create memory-jobs',
      'npx wrangler queues create memory-jobs-dlq',
      'npx wrangler kv namespace create agent-ready-edge-OAUTH_KV',
    ]);
    expect(fake.commands[0]).toBe('npm run build');
    expect(fake.written()).toBe(true);
    expect(fake.config()).toContain(`database_id = "${D1_ID}"`);
    expect(fake.config()).toContain(`id = "${KV_ID}"`);
    expect(fake.config()).not.toContain('00000000-0000-4000-8000-000000000001');
    expect(fake.config()).not.toContain('00000000000000000000000000000001');
    const migrate = fake.commands.indexOf(
      'npx wrangler d1 migrations apply memory-control --remote',
    );
    const deployAt = fake.commands.findIndex((c) => c.startsWith('npx wrangler deploy'));
    expect(migrate).toBeGreaterThan(0);
    expect(deployAt).toBeGreaterThan(migrate);
    expect(fake.commands[deployAt]).toBe('npx wrangler deploy --secrets-file /tmp/secrets-0.json');
    expect(outcome.bootstrapKey).toMatch(/^mem_management_[0-9a-f]{48}$/);
    expect(fake.secretFiles.get('/tmp/secrets-0.json')).toEqual({
      MEMORY_BOOTSTRAP_KEY: outcome.bootstrapKey,
    });
    expect(fake.removed).toEqual(['/tmp/secrets-0.json']);
    expect(outcome.urls).toEqual(['https://agent-ready-edge.acme.workers.dev']);
  });

  it('run again on a provisioned account: creates nothing, rewrites nothing, keeps the key', () => {
    const account = fresh();
    const first = fakeIo(account);
    deploy(first.io, { env: undefined, config: undefined }, target);
    account.secrets = ['MEMORY_BOOTSTRAP_KEY'];
    const provisioned = targetOf(unstable_readConfig({ config: 'wrangler.toml' }));
    // The second run reads the configuration the first one wrote.
    const again = fakeIo(account);
    again.io.writeConfig(first.config());
    const withIds = {
      ...provisioned,
      d1: [{ name: 'memory-control', id: D1_ID }],
      kv: [{ binding: 'OAUTH_KV', id: KV_ID }],
    };
    account.buckets.push('memory-blobs');
    account.queues.push('memory-jobs', 'memory-jobs-dlq');
    const before = again.config();
    const outcome = deploy(again.io, { env: undefined, config: undefined }, withIds);
    expect(again.commands.filter((c) => / create /.test(c))).toEqual([]);
    expect(again.config()).toBe(before);
    expect(again.commands).toContain('npx wrangler deploy');
    expect(outcome.bootstrapKey).toBeNull();
    expect(again.secretFiles.size).toBe(0);
  });

  it('passes --env and --config to every wrangler command', () => {
    const fake = fakeIo(fresh());
    deploy(fake.io, { env: 'api', config: 'wrangler.toml' }, target);
    const wranglerCommands = fake.commands.filter((c) => c.startsWith('npx wrangler'));
    expect(wranglerCommands.length).toBeGreaterThan(8);
    for (const c of wranglerCommands) expect(c).toMatch(/ --config wrangler\.toml --env api$/);
  });

  it('stops before deploying when the secrets cannot be listed (a new key would replace the old)', () => {
    const account = fresh();
    account.secrets = 'auth error';
    const fake = fakeIo(account);
    expect(() => deploy(fake.io, { env: undefined, config: undefined }, target)).toThrow(
      DeployError,
    );
    expect(fake.commands.some((c) => c.startsWith('npx wrangler deploy'))).toBe(false);
  });

  it('refuses a configured D1 id that is not the account database of that name', () => {
    const account = fresh();
    account.d1.push({ name: 'memory-control', uuid: D1_ID });
    const fake = fakeIo(account);
    const stale = {
      ...target,
      d1: [{ name: 'memory-control', id: '99999999-9999-4999-8999-999999999999' }],
    };
    expect(() => deploy(fake.io, { env: undefined, config: undefined }, stale)).toThrow(
      /fix database_id/,
    );
    expect(fake.written()).toBe(false);
  });
});
