// The logic of `npm run deploy`, apart from the processes it starts, so that a test can run it
// against a fake `wrangler` (test/build/deploy.test.ts): find or create every resource the
// configuration names, write the ids it learns into the configuration, apply the D1 migrations,
// deploy with the bootstrap key as a secret when the Worker has none yet, and print the URLs.
import { randomBytes } from 'node:crypto';

/** One finished command: exit status and captured output. */
export interface RunResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs a command (`npx wrangler ...`, `npm run build`); the test passes a fake. */
export type Runner = (command: string, args: string[]) => RunResult;

/** What the deploy needs from the Wrangler configuration of the chosen environment. */
export interface DeployTarget {
  workerName: string;
  d1: { name: string; id: string }[];
  buckets: string[];
  queues: string[];
  kv: { binding: string; id: string }[];
}

export interface DeployIo {
  run: Runner;
  /** Reads and rewrites the configuration file's text (ids replace the placeholders). */
  readConfig(): string;
  writeConfig(text: string): void;
  /** Writes a secrets file for `wrangler deploy --secrets-file` and returns its path. */
  writeSecrets(secrets: Record<string, string>): string;
  removeSecrets(path: string): void;
  log(line: string): void;
}

export interface DeployOptions {
  /** `--env` of the Wrangler configuration, or undefined for the top level. */
  env: string | undefined;
  /** `--config`, when not wrangler.toml. */
  config: string | undefined;
}

export class DeployError extends Error {}

/** The parts of a parsed Wrangler configuration (`unstable_readConfig`) the deploy reads. */
export interface WranglerConfigParts {
  name?: string | undefined;
  d1_databases: { binding: string; database_name?: string; database_id?: string }[];
  r2_buckets: { binding: string; bucket_name?: string }[];
  queues: {
    producers?: { queue: string }[];
    consumers?: { queue: string; dead_letter_queue?: string }[];
  };
  kv_namespaces: { binding: string; id?: string }[];
}

/** Every resource the configuration's environment binds, by the names it gives them. */
export function targetOf(config: WranglerConfigParts): DeployTarget {
  const consumers = config.queues.consumers ?? [];
  return {
    workerName: config.name ?? 'engram',
    d1: config.d1_databases.map((db) => ({
      name: db.database_name ?? db.binding,
      id: db.database_id ?? '',
    })),
    buckets: config.r2_buckets.map((b) => b.bucket_name ?? b.binding),
    queues: [
      ...new Set([
        ...(config.queues.producers ?? []).map((q) => q.queue),
        ...consumers.flatMap((q) =>
          q.dead_letter_queue === undefined ? [q.queue] : [q.queue, q.dead_letter_queue],
        ),
      ]),
    ],
    kv: config.kv_namespaces.map((ns) => ({ binding: ns.binding, id: ns.id ?? '' })),
  };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
/** The ids the committed wrangler.toml holds until a deploy writes real ones. */
const PLACEHOLDER_D1 = /^0{8}-0{4}-4000-8000-0{11}\d$/;
const PLACEHOLDER_KV = /^0{31}\d$/;

function wrangler(io: DeployIo, options: DeployOptions, args: string[], what: string): string {
  const extra = [
    ...(options.config === undefined ? [] : ['--config', options.config]),
    ...(options.env === undefined ? [] : ['--env', options.env]),
  ];
  const result = io.run('npx', ['wrangler', ...args, ...extra]);
  if (result.status !== 0) {
    throw new DeployError(`${what} failed (wrangler ${args.join(' ')}):\n${result.stderr}`);
  }
  return result.stdout;
}

/** A name listed in a command's text output as a whole word (queue and bucket lists are tables). */
function listed(output: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[\\s|"':])${escaped}($|[\\s|"',])`, 'm').test(output);
}

function d1Id(io: DeployIo, options: DeployOptions, name: string): string | null {
  const list = JSON.parse(wrangler(io, options, ['d1', 'list', '--json'], 'listing D1')) as {
    name: string;
    uuid: string;
  }[];
  return list.find((db) => db.name === name)?.uuid ?? null;
}

function kvId(io: DeployIo, options: DeployOptions, title: string): string | null {
  const out = wrangler(io, options, ['kv', 'namespace', 'list'], 'listing KV namespaces');
  const list = JSON.parse(out) as { id: string; title: string }[];
  return list.find((ns) => ns.title === title)?.id ?? null;
}

/** Finds or creates every resource; returns the configuration text with the ids written in. */
export function provision(
  io: DeployIo,
  options: DeployOptions,
  target: DeployTarget,
  configText: string,
): string {
  let text = configText;
  for (const db of target.d1) {
    let id = d1Id(io, options, db.name);
    if (id === null) {
      io.log(`creating D1 database ${db.name}`);
      const out = wrangler(io, options, ['d1', 'create', db.name], `creating D1 ${db.name}`);
      id = UUID.exec(out)?.[0] ?? d1Id(io, options, db.name);
      if (id === null) throw new DeployError(`D1 ${db.name} was created but not listed`);
    } else io.log(`D1 database ${db.name}: ${id}`);
    if (db.id !== id) {
      if (!PLACEHOLDER_D1.test(db.id) && db.id !== '') {
        throw new DeployError(
          `the configuration names D1 ${db.name} with id ${db.id}, but the account's is ${id}: fix database_id`,
        );
      }
      text = text.split(`"${db.id}"`).join(`"${id}"`);
    }
  }
  const buckets = wrangler(io, options, ['r2', 'bucket', 'list'], 'listing R2 buckets');
  for (const bucket of target.buckets) {
    if (listed(buckets, bucket)) io.log(`R2 bucket ${bucket}: found`);
    else {
      io.log(`creating R2 bucket ${bucket}`);
      wrangler(io, options, ['r2', 'bucket', 'create', bucket], `creating R2 bucket ${bucket}`);
    }
  }
  const queues = wrangler(io, options, ['queues', 'list'], 'listing queues');
  for (const queue of target.queues) {
    if (listed(queues, queue)) io.log(`queue ${queue}: found`);
    else {
      io.log(`creating queue ${queue}`);
      wrangler(io, options, ['queues', 'create', queue], `creating queue ${queue}`);
    }
  }
  for (const ns of target.kv) {
    const title = `${target.workerName}-${ns.binding}`;
    let id = kvId(io, options, title);
    if (id === null) {
      io.log(`creating KV namespace ${title}`);
      wrangler(io, options, ['kv', 'namespace', 'create', title], `creating KV ${title}`);
      id = kvId(io, options, title);
      if (id === null) throw new DeployError(`KV namespace ${title} was created but not listed`);
    } else io.log(`KV namespace ${title}: ${id}`);
    if (ns.id !== id) {
      if (!PLACEHOLDER_KV.test(ns.id) && ns.id !== '') {
        throw new DeployError(
          `the configuration binds ${ns.binding} to KV ${ns.id}, but the account's ${title} is ${id}: fix its id`,
        );
      }
      text = text.split(`"${ns.id}"`).join(`"${id}"`);
    }
  }
  return text;
}

/** Whether the deployed Worker already has the bootstrap key (false before its first deploy). */
function hasBootstrapSecret(io: DeployIo, options: DeployOptions): boolean {
  const extra = [
    ...(options.config === undefined ? [] : ['--config', options.config]),
    ...(options.env === undefined ? [] : ['--env', options.env]),
  ];
  const result = io.run('npx', ['wrangler', 'secret', 'list', '--format', 'json', ...extra]);
  // Before the first deploy there is no Worker to list. Any other failure stops the deploy: a
  // new key sent over a kept one would lock out everyone who holds the old one.
  if (result.status !== 0) {
    if (/not found|does not exist|10007/i.test(result.stderr)) return false;
    throw new DeployError(`listing the Worker's secrets failed:\n${result.stderr}`);
  }
  const secrets = JSON.parse(result.stdout) as { name: string }[];
  return secrets.some((s) => s.name === 'MEMORY_BOOTSTRAP_KEY');
}

export interface DeployOutcome {
  urls: string[];
  /** The bootstrap key created by this deploy (printed once), or null when one was kept. */
  bootstrapKey: string | null;
}

/** The whole deploy: build, resources, migrations, the Worker with its secret, the URLs. */
export function deploy(io: DeployIo, options: DeployOptions, target: DeployTarget): DeployOutcome {
  const built = io.run('npm', ['run', 'build']);
  if (built.status !== 0) throw new DeployError(`npm run build failed:\n${built.stderr}`);
  const before = io.readConfig();
  const after = provision(io, options, target, before);
  if (after !== before) {
    io.writeConfig(after);
    io.log('wrote the resource ids into the configuration: commit it');
  }
  for (const db of target.d1) {
    wrangler(io, options, ['d1', 'migrations', 'apply', db.name, '--remote'], 'D1 migrations');
  }
  const bootstrapKey = hasBootstrapSecret(io, options)
    ? null
    : `mem_management_${randomBytes(24).toString('hex')}`;
  const secrets =
    bootstrapKey === null ? null : io.writeSecrets({ MEMORY_BOOTSTRAP_KEY: bootstrapKey });
  let out: string;
  try {
    out = wrangler(
      io,
      options,
      ['deploy', ...(secrets === null ? [] : ['--secrets-file', secrets])],
      'wrangler deploy',
    );
  } finally {
    if (secrets !== null) io.removeSecrets(secrets);
  }
  const urls = [...new Set(out.match(/https:\/\/[^\s"'<>]+/g) ?? [])].filter(
    (url) => !url.includes('dash.cloudflare.com') && !url.includes('developers.cloudflare.com'),
  );
  return { urls, bootstrapKey };
}
