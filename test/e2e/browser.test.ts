import { chromium, type Browser } from 'playwright-core';
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

describe('in Chromium', () => {
  it('renders the homepage with its markdown alternate link', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/`);
    expect(await page.locator('h1').first().textContent()).toBe('Engram');
    expect(
      await page.locator('link[rel="alternate"][type="text/markdown"]').getAttribute('href'),
    ).toBe('/index.md');
    await page.close();
  });
});
