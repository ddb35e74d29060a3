/**
 * The audit's loop: every page measured `runs` times by Lighthouse, round-robin so a burst of
 * load on a shared machine spreads over every page, then once by axe-core. Both see the page the
 * same way: plain, or signed in through the same init script.
 */
import axe from 'axe-core';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterFirstIdle, launchChromium } from '../../test/support/chromium.ts';
import { lighthouseRun, summarise, unusable, type Lhr, type RunResult } from './lighthouse.ts';

/** Every run's full Lighthouse report, for a person to open. */
export const REPORTS = join('test-results', 'lighthouse');

/** A run whose performance score Lighthouse could not compute is measured again, this often. */
const MAX_REPEATS = 3;

export interface PageResult {
  path: string;
  runs: RunResult[];
  discarded: string[];
  axeSerious: string[];
}

export interface MeasureOptions {
  pages: readonly string[];
  runs: number;
  /** Evaluated in every new document before the page's scripts (a signed-in audit). */
  initScript?: string;
  /** Resolves once the page shows what axe should judge (after the first idle by default). */
  ready?: (page: Page) => Promise<void>;
  onRun: (path: string, run: number, lhr: Lhr) => void;
}

/** Writes one run's report as `test-results/lighthouse/<page>-<run>.json` (`/` is `home`). */
export function saveReport(path: string, run: number, lhr: Lhr): void {
  mkdirSync(REPORTS, { recursive: true });
  const name = path === '/' ? 'home' : path.slice(1).replaceAll('/', '_');
  writeFileSync(join(REPORTS, `${name}-${run}.json`), JSON.stringify(lhr));
}

async function axeRun(
  url: string,
  initScript: string | undefined,
  ready: (page: Page) => Promise<void>,
): Promise<string[]> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    if (initScript !== undefined) await page.addInitScript(initScript);
    await page.goto(url);
    await ready(page);
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

/** Warms the page and its assets once, so no run measures workerd compiling the Worker. */
async function warm(url: string): Promise<void> {
  const html = await (await fetch(url)).text();
  const assets = [...html.matchAll(/(?:href|src)="(\/_astro\/[^"]+)"/g)].map((m) => m[1]);
  await Promise.all(assets.map(async (a) => (await fetch(new URL(a ?? '', url))).arrayBuffer()));
}

export async function measure(base: string, options: MeasureOptions): Promise<PageResult[]> {
  const results = options.pages.map((path): PageResult => ({
    path,
    runs: [],
    discarded: [],
    axeSerious: [],
  }));
  for (const r of results) await warm(`${base}${r.path}`);
  for (let run = 1; run <= options.runs; run++) {
    for (const r of results) {
      for (let attempt = 0; attempt <= MAX_REPEATS; attempt++) {
        const lhr = await lighthouseRun(`${base}${r.path}`, options.initScript);
        const why = unusable(lhr);
        if (why) {
          r.discarded.push(why);
          console.log(`audit ${r.path} run ${run}: discarded (${why}), measuring again`);
          continue;
        }
        options.onRun(r.path, run, lhr);
        const s = summarise(lhr);
        r.runs.push(s);
        console.log(
          `audit ${r.path} run ${run}: ${JSON.stringify(s.scores)} failing: ${s.failing.join(' ')}`,
        );
        break;
      }
    }
  }
  const ready = options.ready ?? afterFirstIdle;
  for (const r of results) {
    r.axeSerious = await axeRun(`${base}${r.path}`, options.initScript, ready);
  }
  return results;
}
