/**
 * `npm run audit`: Lighthouse (mobile, its default config) and axe-core on the audited pages,
 * against `wrangler dev` serving the built dist/, in the Chromium of `@sparticuz/chromium`.
 * Each page is measured AUDIT_RUNS times (default 3), round-robin so a burst of load on a shared
 * machine spreads over every page, and each category is reported as the median of the runs.
 * Prints a table and writes it to docs/BENCHMARKS.md (section `audit`, kept by `npm run bench`);
 * the JSON reports land in test-results/lighthouse/ for a person to open.
 *
 * Targets (issue 13): performance >= 95, accessibility >= 98, best practices 100, SEO 100 apart
 * from the robots.txt audit (it flags the `Content-Signal` line the spec asks for); axe-core: no
 * serious or critical violation. The script exits non-zero when a target is missed.
 *
 * `npm run audit -- --console` measures the ten console pages signed in instead (issue 41:
 * >= 95 in every category) and writes docs/console.md's `audit:console` section
 * (scripts/audit/console.ts); `--page <path>` narrows either list and then writes nothing.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { startDevServer } from '../test/support/wrangler-dev.ts';
import { measureConsole } from './audit/console.ts';
import { measure, saveReport, type PageResult } from './audit/measure.ts';
import { parseAuditArgs, type AuditOptions } from './audit/options.ts';
import { report, type ReportSpec } from './audit/report.ts';

export { AUDITED_PAGES } from './audit/options.ts';
export { median, report } from './audit/report.ts';

/** Where each audit's section lives, between `<!-- <marker>:start -->` and `:end -->`. */
const SECTIONS = {
  site: { file: 'docs/BENCHMARKS.md', marker: 'bench:audit' },
  console: { file: 'docs/console.md', marker: 'audit:console' },
} as const;

function spec(options: AuditOptions): ReportSpec {
  // A narrowed run says so in its command line (it is printed, never written to the docs).
  const narrowed = options.complete ? '' : ' --page …';
  if (!options.console) {
    return {
      title: '## Site: Lighthouse and axe-core audit',
      command: options.complete
        ? 'npm run build && npm run audit'
        : `npm run build && npm run audit --${narrowed}`,
      runs: options.runs,
      targets: { performance: 95, accessibility: 98, 'best-practices': 100, seo: 100 },
    };
  }
  return {
    title: '## Measured: Lighthouse and axe-core, signed in',
    command: `npm run build && npm run audit -- --console${narrowed}`,
    runs: options.runs,
    targets: { performance: 95, accessibility: 95, 'best-practices': 95, seo: 95 },
    note:
      'Signed in: a fresh `wrangler dev` with a Context seeded through the public API ' +
      '(`test/support/console-seed.ts`: facts of two teams, one edited so it has history, two ' +
      'sessions, one with four turns, a processed document, an agent key), and the bootstrap ' +
      "root key, that Context and the key's whoami answer put in `sessionStorage` before the " +
      "page's scripts run (`scripts/audit/sign-in-script.ts`), in every Lighthouse run and the axe run.",
  };
}

export async function runAudit(options: AuditOptions): Promise<string> {
  if (!existsSync('dist/index.html'))
    throw new Error('Run `npm run build` first: the audit serves dist/.');
  const before = loadavg()[0] ?? 0;
  let results: PageResult[];
  if (options.console) {
    results = await measureConsole(options.pages, options.runs);
  } else {
    const server = await startDevServer();
    try {
      results = await measure(server.url, {
        pages: options.pages,
        runs: options.runs,
        onRun: saveReport,
      });
    } finally {
      await server.stop();
    }
  }
  return report(results, { before, after: loadavg()[0] ?? 0 }, spec(options));
}

/** Replaces (or appends) an audit's section of its Markdown file. */
function writeSection(section: { file: string; marker: string }, markdown: string): void {
  const start = `<!-- ${section.marker}:start -->`;
  const end = `<!-- ${section.marker}:end -->`;
  const text = readFileSync(section.file, 'utf8');
  const block = `${start}\n${markdown}\n\n_Measured ${new Date().toISOString().slice(0, 10)}._\n${end}`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  const next =
    from >= 0 && to > from
      ? `${text.slice(0, from)}${block}${text.slice(to + end.length)}`
      : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(section.file, next);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const options = parseAuditArgs(process.argv.slice(2), process.env.AUDIT_RUNS);
  const markdown = await runAudit(options);
  console.log(markdown);
  if (options.complete) writeSection(SECTIONS[options.console ? 'console' : 'site'], markdown);
  else console.log('(--page narrowed the pages: nothing written to the docs)');
  if (markdown.includes('\nMissed: ')) process.exitCode = 1;
}
