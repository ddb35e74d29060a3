/**
 * What `npm run audit` measures: the site's pages by default, the console's ten pages signed in with
 * `--console`; `--page <path>` (repeatable) narrows either list for a quick look, and such a
 * partial run prints its table without writing it into the docs. AUDIT_RUNS sets the runs per
 * page (default 3).
 */
import { parseArgs } from 'node:util';

export const AUDITED_PAGES = [
  '/',
  '/docs',
  '/docs/quickstart',
  '/docs/reference/memory/query-memory',
  '/pricing',
];

/** The console's views (issue 41), each measured signed in. */
export const CONSOLE_PAGES = [
  '/console',
  '/console/facts',
  '/console/query',
  '/console/entities',
  '/console/sessions',
  '/console/documents',
  '/console/contexts',
  '/console/keys',
  '/console/migrations',
  // Opened without a code: what a stale or hand-typed callback address shows.
  '/console/callback',
];

export interface AuditOptions {
  console: boolean;
  pages: string[];
  /** False when `--page` narrowed the list: the docs keep the last full run. */
  complete: boolean;
  runs: number;
}

export function auditRuns(value: string | undefined): number {
  return Math.max(1, Number(value ?? 3) || 3);
}

export function parseAuditArgs(argv: string[], runs: string | undefined): AuditOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      console: { type: 'boolean', default: false },
      page: { type: 'string', multiple: true, default: [] },
    },
    strict: true,
    allowPositionals: false,
  });
  const isConsole = values.console === true;
  const all = isConsole ? CONSOLE_PAGES : AUDITED_PAGES;
  const asked = values.page ?? [];
  const unknown = asked.filter((p) => !all.includes(p));
  if (unknown.length > 0) {
    throw new Error(
      `${unknown.join(', ')}: not audited ${isConsole ? 'with --console' : 'without --console'}; ` +
        `choose among ${all.join(', ')}.`,
    );
  }
  return {
    console: isConsole,
    pages: asked.length === 0 ? [...all] : all.filter((p) => asked.includes(p)),
    complete: asked.length === 0,
    runs: auditRuns(runs),
  };
}
