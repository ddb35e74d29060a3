import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Workers Free refuses a script whose compressed upload passes 3 MB (Workers Paid: 10 MB); read
 * as decimal megabytes, the stricter reading. */
export const FREE_PLAN_SCRIPT_LIMIT = 3_000_000;

export interface WorkerBundle {
  /** The modules wrangler would upload, concatenated (source maps and the README left out). */
  script: Buffer;
  /** Their gzip size, computed as wrangler computes its "Total Upload ... gzip" figure. */
  gzipBytes: number;
}

/**
 * The Worker exactly as `wrangler deploy --dry-run` bundles it (top-level environment; needs
 * dist/ from `npm run build`, which the assets configuration points at). Deterministic for a
 * given tree, so its size can be tested and benchmarked.
 */
export function bundleWorker(): WorkerBundle {
  const out = mkdtempSync(join(tmpdir(), 'engram-bundle-'));
  try {
    execFileSync('npx', ['wrangler', 'deploy', '--dry-run', '--env', '', '--outdir', out], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const modules = readdirSync(out)
      .filter((name) => !name.endsWith('.map') && name !== 'README.md')
      .sort()
      .map((name) => readFileSync(join(out, name)));
    const script = Buffer.concat(modules);
    return { script, gzipBytes: gzipSync(script).length };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
