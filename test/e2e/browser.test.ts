import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { openPage } from '../support/chromium.ts';

const base = inject('baseUrl');

/** Screenshots are test artefacts, kept for a person to look at (git-ignored). */
const SCREENSHOTS = join('test-results', 'screenshots');

/**
 * Runs `check` on `path` in a browser of its own (the npm Chromium holds one page per process)
 * and fails on anything the page reported as going wrong while it loaded: console errors,
 * uncaught exceptions, requests that failed or answered 4xx/5xx.
 */
async function inBrowser(
  path: string,
  check: (page: Page) => Promise<void>,
  width = 1280,
): Promise<void> {
  const { page, close } = await openPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('requestfailed', (r) =>
    problems.push(`request failed: ${r.url()} (${r.failure()?.errorText ?? 'unknown'})`),
  );
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  try {
    await page.setViewportSize({ width, height: 900 });
    const res = await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
    expect(res?.status()).toBe(200);
    await check(page);
    expect(problems).toEqual([]);
  } finally {
    await close();
  }
}

describe('in Chromium', () => {
  it('renders the homepage with its markdown alternate link', async () => {
    await inBrowser('/', async (page) => {
      expect(await page.locator('h1').first().textContent()).toMatch(/^Engram/);
      expect(
        await page.locator('link[rel="alternate"][type="text/markdown"]').getAttribute('href'),
      ).toBe('/index.md');
    });
  });

  it('renders /pricing with its plans and its markdown alternate link', async () => {
    await inBrowser('/pricing', async (page) => {
      expect(await page.locator('h1').first().textContent()).toMatch(/Pricing/);
      expect(
        await page.locator('link[rel="alternate"][type="text/markdown"]').getAttribute('href'),
      ).toBe('/pricing.md');
      const catalogue = (await (await fetch(`${base}/api/cloud/pricing.json`)).json()) as {
        cloud: { name: string }[];
      };
      const text = (await page.locator('main').textContent()) ?? '';
      for (const plan of catalogue.cloud) expect(text).toContain(plan.name);
    });
  });

  it('changes the calculator total when the node size changes', async () => {
    await inBrowser('/pricing', async (page) => {
      const total = page.locator('#calculator-total');
      const select = page.locator('#calculator-node');
      const values = await select
        .locator('option')
        .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
      expect(values.length).toBeGreaterThan(1);
      const current = await select.inputValue();
      const other = values.filter((v) => v !== current).at(-1) ?? '';
      const before = (await total.textContent())?.trim() ?? '';
      expect(before).toMatch(/\d/);
      await select.selectOption(other);
      await expect.poll(async () => (await total.textContent())?.trim()).not.toBe(before);
    });
  });

  it('updates the total and its compute, storage and transfer lines as the reader types', async () => {
    await inBrowser(
      '/pricing',
      async (page) => {
        const money = async (id: string): Promise<number> =>
          Number(((await page.locator(id).textContent()) ?? '').replace(/[^0-9.]/g, ''));
        const storageBefore = await money('#calculator-storage-cost');
        const totalBefore = await money('#calculator-total');
        // Typed into the field as a reader would, on a phone-width page.
        await page.locator('#calculator-storage').fill('');
        await page.locator('#calculator-storage').pressSequentially('400');
        await expect.poll(() => money('#calculator-storage-cost')).not.toBe(storageBefore);
        const parts = await Promise.all(
          ['#calculator-compute', '#calculator-storage-cost', '#calculator-transfer-cost'].map(
            money,
          ),
        );
        const total = await money('#calculator-total');
        expect(total).toBeGreaterThan(totalBefore);
        expect(Math.round(parts.reduce((a, b) => a + b, 0) * 100)).toBe(Math.round(total * 100));
      },
      390,
    );
  });
});

describe('screenshots at phone and desktop widths, with no console error or failed request', () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const pages = [
    { name: 'home', path: '/' },
    { name: 'docs-quickstart', path: '/docs/quickstart' },
    { name: 'pricing', path: '/pricing' },
  ];
  for (const { name, path } of pages) {
    for (const width of [390, 1280]) {
      it(`${path} at ${width} px`, async () => {
        await inBrowser(
          path,
          async (page) => {
            // A page wider than the viewport scrolls sideways on a phone: a layout bug.
            const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
            expect(scrollWidth).toBeLessThanOrEqual(width);
            await page.screenshot({
              path: join(SCREENSHOTS, `${name}-${width}.png`),
              fullPage: true,
            });
          },
          width,
        );
      });
    }
  }
});
