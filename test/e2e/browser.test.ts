import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const base = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
});

afterAll(async () => {
  await browser.close();
});

async function open(path: string): Promise<Page> {
  const page = await browser.newPage();
  const res = await page.goto(`${base}${path}`);
  expect(res?.status()).toBe(200);
  return page;
}

describe('in Chromium', () => {
  it('renders the homepage with its markdown alternate link', async () => {
    const page = await open('/');
    expect(await page.locator('h1').first().textContent()).toMatch(/^Engram/);
    expect(
      await page.locator('link[rel="alternate"][type="text/markdown"]').getAttribute('href'),
    ).toBe('/index.md');
    await page.close();
  });

  it('renders /pricing with its plans and its markdown alternate link', async () => {
    const page = await open('/pricing');
    expect(await page.locator('h1').first().textContent()).toMatch(/Pricing/);
    expect(
      await page.locator('link[rel="alternate"][type="text/markdown"]').getAttribute('href'),
    ).toBe('/pricing.md');
    const catalogue = (await (await fetch(`${base}/api/cloud/pricing.json`)).json()) as {
      cloud: { name: string }[];
    };
    const text = (await page.locator('main').textContent()) ?? '';
    for (const plan of catalogue.cloud) expect(text).toContain(plan.name);
    await page.close();
  });

  it('changes the calculator total when the node size changes', async () => {
    const page = await open('/pricing');
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
    await page.close();
  });
});
