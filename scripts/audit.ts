/**
 * `npm run audit`: Lighthouse (mobile, its default config) and axe-core on the audited pages,
 * against `wrangler dev` serving the built dist/, in the Chromium of `@sparticuz/chromium`.
 * Prints a table and writes it to docs/BENCHMARKS.md (section `audit`, kept by `npm run bench`).
 *
 * Targets (issue 13): performance >= 95, accessibility >= 98, best practices 100, SEO 100 apart
 * from the robots.txt audit (it flags the `Content-Signal` line the spec asks for); axe-core: no
 * serious or critical violation. The script exits non-zero when a target is missed.
 */
import axe from 'axe-core';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { freePort, startDevServer } from '../test/support/wrangler-dev.ts';
import { launchChromium } from '../test/support/chromium.ts';
import sparticuz from '@sparticuz/chromium';
import { chromium, type Browser } from 'playwright-core';

export const AUDITED_PAGES = [
  '/',
  '/docs',
  '/docs/quickstart',
  '/docs/reference/memory/query-memory',
  '/pricing',
];

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];
const TARGET: Record<Category, number> = {
  performance: 95,
  accessibility: 98,
  'best-practices': 100,
  seo: 100,
};
/** Audits allowed to fail, and why. */
const WAIVED: Record<string, string> = {
  'robots-txt': 'the robots.txt `Content-Signal` line (spec) is unknown to Lighthouse',
};

interface PageResult {
  path: string;
  scores: Record<Category, number>;
  /** SEO score with the waived audits counted as passed. */
  seoWaived: number;
  failedSeo: string[];
  axeSerious: string[];
}

interface LhAudit {
  score: number | null;
  scoreDisplayMode: string;
}
interface LhCategory {
  score: number | null;
  auditRefs: { id: string; weight: number }[];
}

/** The launcher's Chromium, plus a DevTools port for Lighthouse to drive it through. */
async function withDebuggingPort(port: number): Promise<Browser> {
  const system = process.env.CHROMIUM_PATH;
  return chromium.launch({
    executablePath: system ?? (await sparticuz.executablePath()),
    args: [
      ...(system ? ['--no-sandbox', '--disable-gpu'] : sparticuz.args),
      '--disable-background-networking',
      '--disable-component-update',
      `--remote-debugging-port=${port}`,
    ],
    headless: true,
  });
}

interface Lhr {
  categories: Record<string, LhCategory>;
  audits: Record<string, LhAudit>;
  runtimeError?: { code: string; message: string };
}

async function lighthouseRun(url: string): Promise<Lhr> {
  const { default: lighthouse } = await import('lighthouse');
  const port = await freePort();
  // One browser per page: the npm Chromium runs single-process and holds one page at a time.
  const browser = await withDebuggingPort(port);
  try {
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    return result.lhr as unknown as Lhr;
  } finally {
    await browser.close();
  }
}

async function axeRun(url: string): Promise<string[]> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(url);
    await page.evaluate(axe.source);
    const results = await page.evaluate(() =>
      (window as unknown as { axe: typeof axe }).axe.run(document, {
        runOnly: {
          type: 'tag',
          values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
        },
      }),
    );
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id);
  } finally {
    await browser.close();
  }
}

function seoWithout(lhr: {
  categories: Record<string, LhCategory>;
  audits: Record<string, LhAudit>;
}) {
  const seo = lhr.categories.seo;
  if (!seo) return { score: 0, failed: [] as string[] };
  let total = 0;
  let got = 0;
  const failed: string[] = [];
  for (const ref of seo.auditRefs) {
    const audit = lhr.audits[ref.id];
    if (!audit || ref.weight === 0 || audit.scoreDisplayMode === 'notApplicable') continue;
    total += ref.weight;
    const score = ref.id in WAIVED ? 1 : (audit.score ?? 0);
    if ((audit.score ?? 0) < 1) failed.push(ref.id);
    got += ref.weight * score;
  }
  return { score: total ? Math.round((got / total) * 100) : 0, failed };
}

export async function runAudit(): Promise<string> {
  if (!existsSync('dist/index.html'))
    throw new Error('Run `npm run build` first: the audit serves dist/.');
  const server = await startDevServer();
  const results: PageResult[] = [];
  try {
    for (const path of AUDITED_PAGES) {
      const url = `${server.url}${path}`;
      const lhr = await lighthouseRun(url);
      const scores = Object.fromEntries(
        CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]),
      ) as Record<Category, number>;
      const seo = seoWithout(lhr);
      results.push({
        path,
        scores,
        seoWaived: seo.score,
        failedSeo: seo.failed,
        axeSerious: await axeRun(url),
      });
      const failing = CATEGORIES.flatMap((c) =>
        (lhr.categories[c]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => `${c}:${ref.id}`),
      );
      console.log(`audit ${path}: ${JSON.stringify(scores)} failing: ${failing.join(' ')}`);
      if (lhr.runtimeError) console.log(`  runtime error: ${JSON.stringify(lhr.runtimeError)}`);
    }
  } finally {
    await server.stop();
  }
  const rows = results.map(
    (r) =>
      `| \`${r.path}\` | ${r.scores.performance} | ${r.scores.accessibility} | ${r.scores['best-practices']} | ${r.scores.seo} (${r.seoWaived} without \`robots-txt\`) | ${r.axeSerious.length === 0 ? 'none' : r.axeSerious.join(', ')} |`,
  );
  const missed = results.flatMap((r) => [
    ...CATEGORIES.filter((c) => c !== 'seo' && r.scores[c] < TARGET[c]).map(
      (c) => `${r.path}: ${c} ${r.scores[c]} < ${TARGET[c]}`,
    ),
    ...(r.seoWaived < TARGET.seo
      ? [`${r.path}: seo ${r.seoWaived} (${r.failedSeo.join(', ')})`]
      : []),
    ...r.axeSerious.map((id) => `${r.path}: axe ${id}`),
  ]);
  return [
    '## Site: Lighthouse and axe-core audit',
    '',
    'Command: `npm run build && npm run audit` (Lighthouse ' +
      'mobile defaults: Moto G Power emulation, simulated slow 4G; axe-core at 390 px, WCAG 2.1 A/AA + best practices). ' +
      'Targets: performance ≥ 95, accessibility ≥ 98, best practices 100, SEO 100 apart from `robots-txt` ' +
      `(${WAIVED['robots-txt']}); axe: no serious or critical violation.`,
    '',
    '| page | performance | accessibility | best practices | SEO | axe serious/critical |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    missed.length === 0 ? 'Every target met.' : `Missed: ${missed.join('; ')}.`,
  ].join('\n');
}

/** Replaces (or appends) the audit section of docs/BENCHMARKS.md, the same markers bench uses. */
function writeSection(markdown: string): void {
  const file = 'docs/BENCHMARKS.md';
  const start = '<!-- bench:audit:start -->';
  const end = '<!-- bench:audit:end -->';
  const text = readFileSync(file, 'utf8');
  const block = `${start}\n${markdown}\n\n_Measured ${new Date().toISOString().slice(0, 10)}._\n${end}`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  const next =
    from >= 0 && to > from
      ? `${text.slice(0, from)}${block}${text.slice(to + end.length)}`
      : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const markdown = await runAudit();
  console.log(markdown);
  writeSection(markdown);
  if (markdown.includes('\nMissed: ')) process.exitCode = 1;
}
