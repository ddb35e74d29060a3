import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';

/**
 * Last change of a source file as YYYY-MM-DD: its last git commit date, else its mtime (for a
 * file not yet committed). Never the build time, so an unchanged page keeps its lastmod.
 */
const cache = new Map<string, string>();

export function gitLastModified(file: string): string {
  const hit = cache.get(file);
  if (hit) return hit;
  const date = fromGit(file) ?? statSync(file).mtime.toISOString().slice(0, 10);
  cache.set(file, date);
  return date;
}

function fromGit(file: string): string | undefined {
  try {
    const out = execFileSync('git', ['log', '-1', '--format=%cs', '--', file], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return /^\d{4}-\d{2}-\d{2}$/.test(out) ? out : undefined;
  } catch {
    return undefined;
  }
}

/** The newest of some YYYY-MM-DD dates (they sort as strings). */
export function newest(dates: readonly string[], fallback: string): string {
  return dates.reduce((a, b) => (b > a ? b : a), fallback);
}
