/**
 * One Lighthouse run of one page (mobile, its default config) in the npm Chromium, reduced to
 * what the audit's tables show. A run may be signed in: a script given here runs in every new
 * document of the tab before the page's own scripts (the console keeps its key in
 * `sessionStorage`, which only a script in the page can fill).
 */
import sparticuz from '@sparticuz/chromium';
import { chromium, type Browser } from 'playwright-core';
import { freePort } from '../../test/support/wrangler-dev.ts';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

/** Audits allowed to fail, and why. */
export const WAIVED: Record<string, string> = {
  'robots-txt': 'the robots.txt `Content-Signal` line (spec) is unknown to Lighthouse',
};

/** The metrics behind the performance score, reported as medians (ms, CLS unitless). */
export const METRICS = [
  ['first-contentful-paint', 'FCP'],
  ['largest-contentful-paint', 'LCP'],
  ['total-blocking-time', 'TBT'],
  ['cumulative-layout-shift', 'CLS'],
  ['speed-index', 'SI'],
] as const;

interface LhAudit {
  score: number | null;
  scoreDisplayMode: string;
  numericValue?: number;
  errorMessage?: string;
  details?: { items?: { items?: { node?: { selector?: string } }[] }[] };
}
interface LhCategory {
  score: number | null;
  auditRefs: { id: string; weight: number }[];
}
export interface Lhr {
  categories: Record<string, LhCategory>;
  audits: Record<string, LhAudit>;
  runtimeError?: { code: string; message: string };
}

/** One Lighthouse run of one page, reduced to what the report shows. */
export interface RunResult {
  scores: Record<Category, number>;
  /** SEO score with the waived audits counted as passed. */
  seoWaived: number;
  failedSeo: string[];
  failing: string[];
  metrics: Record<string, number>;
  lcpElement: string;
  bytes: number;
}

/**
 * The npm Chromium, with a DevTools port for Lighthouse. Unlike the test launcher it drops
 * `--single-process` (a flag for AWS Lambda): in one process Lighthouse's trace holds a single
 * unattributable task for the whole load and, on a busy machine, now and then no screenshots
 * at all (NO_SCREENSHOTS, so no Speed Index and no performance score). A normal multi-process
 * browser is also what the people Lighthouse stands for use.
 */
async function withDebuggingPort(port: number): Promise<Browser> {
  const system = process.env.CHROMIUM_PATH;
  const args = system
    ? ['--no-sandbox', '--disable-gpu']
    : sparticuz.args.filter((a) => a !== '--single-process');
  return chromium.launch({
    executablePath: system ?? (await sparticuz.executablePath()),
    args: [
      ...args,
      '--disable-background-networking',
      '--disable-component-update',
      `--remote-debugging-port=${port}`,
    ],
    headless: true,
  });
}

/**
 * Lighthouse on `url` in a fresh browser. With `initScript`, Lighthouse drives a puppeteer tab
 * that evaluates the script in every new document first (Lighthouse resets the origin's storage
 * before it navigates; the script fills it again in the audited document itself).
 */
export async function lighthouseRun(url: string, initScript?: string): Promise<Lhr> {
  const { default: lighthouse } = await import('lighthouse');
  const port = await freePort();
  const browser = await withDebuggingPort(port);
  try {
    const flags = {
      port,
      output: 'json' as const,
      logLevel: 'error' as const,
      onlyCategories: [...CATEGORIES],
    };
    let result;
    if (initScript === undefined) {
      result = await lighthouse(url, flags);
    } else {
      const puppeteer = await import('puppeteer-core');
      const remote = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}` });
      try {
        const page = await remote.newPage();
        await page.evaluateOnNewDocument(initScript);
        result = await lighthouse(url, flags, undefined, page);
      } finally {
        await remote.disconnect();
      }
    }
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    return result.lhr as unknown as Lhr;
  } finally {
    await browser.close();
  }
}

function seoWithout(lhr: Lhr): { score: number; failed: string[] } {
  const seo = lhr.categories.seo;
  if (!seo) return { score: 0, failed: [] };
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

/** Why a run cannot count (a metric Lighthouse failed to compute), or null when it can. */
export function unusable(lhr: Lhr): string | null {
  if (lhr.runtimeError) return lhr.runtimeError.code;
  if (lhr.categories.performance?.score == null) {
    const broken = METRICS.map(([id]) => lhr.audits[id]).find((a) => a?.errorMessage);
    return broken?.errorMessage?.match(/\(([A-Z_]+)\)/)?.[1] ?? 'no performance score';
  }
  return null;
}

export function summarise(lhr: Lhr): RunResult {
  const scores = Object.fromEntries(
    CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]),
  ) as Record<Category, number>;
  const seo = seoWithout(lhr);
  const failing = CATEGORIES.flatMap((c) =>
    (lhr.categories[c]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${c}:${ref.id}`),
  );
  const metrics = Object.fromEntries(
    METRICS.map(([id, name]) => [name, lhr.audits[id]?.numericValue ?? Number.NaN]),
  );
  const lcp = lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0];
  return {
    scores,
    seoWaived: seo.score,
    failedSeo: seo.failed,
    failing,
    metrics,
    lcpElement: lcp?.node?.selector ?? 'unknown',
    bytes: lhr.audits['total-byte-weight']?.numericValue ?? Number.NaN,
  };
}
