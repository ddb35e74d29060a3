import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { afterFirstIdle, openPage } from '../support/chromium.ts';

/**
 * The docs as a reader uses them, in Chromium against `wrangler dev`: sidebar, search, TOC,
 * the agent menu's copy, dark mode, the 390 px menu, and an axe-core audit of the audited pages.
 * Each test opens its own browser (the npm Chromium holds one page per process).
 */
const base = inject('baseUrl');

async function withPage(
  path: string,
  run: (page: Page) => Promise<void>,
  viewport = { width: 1280, height: 900 },
): Promise<void> {
  const { page, close } = await openPage();
  try {
    await page.setViewportSize(viewport);
    const res = await page.goto(`${base}${path}`);
    expect(res?.status()).toBe(200);
    await run(page);
  } finally {
    await close();
  }
}

/** The pages `npm run audit` runs Lighthouse on: home, docs index, a guide, an API reference page, pricing. */
const AUDITED = [
  '/',
  '/docs',
  '/docs/quickstart',
  '/docs/reference/memory/query-memory',
  '/pricing',
];

describe('docs shell in Chromium', () => {
  it('sidebar: a click lands on the page, which the sidebar then marks as current', async () => {
    await withPage('/docs', async (page) => {
      const link = page.locator('.docs-sidebar a[href="/docs/quickstart"]');
      await link.click();
      await page.waitForURL(`${base}/docs/quickstart`);
      expect(await page.locator('main h1').textContent()).toBe('Quickstart');
      const current = page.locator('.docs-sidebar a[aria-current="page"]');
      expect(await current.getAttribute('href')).toBe('/docs/quickstart');
    });
  });

  it('search: Ctrl-K opens it, typing lists results, arrow down and Enter open the chosen page', async () => {
    await withPage('/docs', async (page) => {
      await page.keyboard.press('Control+k');
      const input = page.locator('#search-input');
      // Waits for the key to be handled, not for a speed: on a shared, loaded machine the
      // default second of expect.poll was once not enough for the dialog to open.
      await expect
        .poll(() => input.evaluate((el) => el === document.activeElement), { timeout: 10_000 })
        .toBe(true);
      await input.fill('hybrid search');
      const options = page.locator('#search-results [role="option"]');
      await expect.poll(() => options.count(), { timeout: 15_000 }).toBeGreaterThan(1);
      expect(await options.first().locator('.search-section').textContent()).not.toBe('');
      expect(await options.first().locator('.search-snippet').textContent()).not.toBe('');
      // The first result is highlighted as soon as results arrive; one arrow moves to the second.
      expect(await options.first().getAttribute('aria-selected')).toBe('true');
      await input.press('ArrowDown');
      const chosen = options.nth(1);
      expect(await chosen.getAttribute('aria-selected')).toBe('true');
      const href = (await chosen.locator('a').getAttribute('href')) ?? '';
      expect(href).toMatch(/^\//);
      await input.press('Enter');
      await page.waitForURL(`${base}${href}`);
      // The same answer an agent gets from the search API (asked from the same page), in order.
      const api = (await (
        await fetch(`${base}/api/docs/search?q=hybrid+search&limit=8&from=%2Fdocs`)
      ).json()) as { results: { url: string }[] };
      expect(new URL(api.results[1]?.url ?? '').pathname).toBe(href);
    });
  });

  it('search: "/" opens it from anywhere on the page, Esc closes it even with a query typed', async () => {
    await withPage('/pricing', async (page) => {
      await page.keyboard.press('/');
      const dialog = page.locator('#search-dialog');
      const isOpen = () => dialog.evaluate((d) => (d as HTMLDialogElement).open);
      expect(await isOpen()).toBe(true);
      await page.locator('#search-input').fill('pricing');
      await page.locator('#search-input').press('Escape');
      await expect.poll(isOpen, { timeout: 10_000 }).toBe(false);
    });
  });

  it('TOC: a click scrolls to its heading and puts it in the address', async () => {
    await withPage('/docs/quickstart', async (page) => {
      const link = page.locator('.docs-toc a').nth(1);
      const hash = (await link.getAttribute('href')) ?? '';
      expect(hash).toMatch(/^#./);
      await link.click();
      await page.waitForURL(`${base}/docs/quickstart${hash}`);
      const heading = page.locator(`[id="${decodeURIComponent(hash.slice(1))}"]`);
      await expect
        .poll(() => heading.evaluate((h) => h.getBoundingClientRect().top))
        .toBeLessThan(300);
    });
  });

  it('agent menu: "Copy page" puts the page’s markdown twin on the clipboard', async () => {
    await withPage('/docs/quickstart', async (page) => {
      await page
        .context()
        .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
      await page.locator('.agent-copy').click();
      await expect.poll(() => page.locator('.agent-copy').textContent()).toContain('Copied');
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      const twin = await (await fetch(`${base}/docs/quickstart.md`)).text();
      expect(copied).toBe(twin);
      expect(copied.startsWith('# Quickstart')).toBe(true);
    });
  });

  it('agent menu: view as markdown and open in ChatGPT or Claude point at the twin', async () => {
    await withPage('/docs/quickstart', async (page) => {
      await page.locator('.agent-more summary').click();
      expect(
        await page
          .locator('.agent-options a', { hasText: 'View as markdown' })
          .getAttribute('href'),
      ).toBe('/docs/quickstart.md');
      for (const name of ['ChatGPT', 'Claude']) {
        const href =
          (await page.locator('.agent-options a', { hasText: name }).getAttribute('href')) ?? '';
        expect(decodeURIComponent(href)).toMatch(/\/docs\/quickstart\.md/);
      }
    });
  });

  it('agent menu: copies the MCP server URL, offers Cursor and VS Code, and Esc closes it', async () => {
    await withPage('/docs/quickstart', async (page) => {
      await page
        .context()
        .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
      const details = page.locator('.agent-more');
      const isOpen = () => details.evaluate((d) => (d as HTMLDetailsElement).open);
      await page.locator('.agent-more summary').click();
      expect(await isOpen()).toBe(true);
      const cursor = await page
        .locator('.agent-options a', { hasText: 'Connect in Cursor' })
        .getAttribute('href');
      expect(cursor).toMatch(
        /^cursor:\/\/anysphere\.cursor-deeplink\/mcp\/install\?name=engram&config=/,
      );
      const config = decodeURIComponent(new URL(cursor ?? '').searchParams.get('config') ?? '');
      expect(JSON.parse(atob(config))).toEqual({ url: 'https://engram.example/mcp' });
      const vscode = await page
        .locator('.agent-options a', { hasText: 'Connect in VS Code' })
        .getAttribute('href');
      expect(
        JSON.parse(decodeURIComponent((vscode ?? '').replace('vscode:mcp/install?', ''))),
      ).toEqual({
        name: 'engram',
        type: 'http',
        url: 'https://engram.example/mcp',
      });
      await page.locator('[data-copy-mcp]').click();
      await expect
        .poll(() => page.evaluate(() => navigator.clipboard.readText()), { timeout: 10_000 })
        .toBe('https://engram.example/mcp');
      expect(await isOpen()).toBe(false);
      await page.locator('.agent-more summary').click();
      expect(await isOpen()).toBe(true);
      await page.keyboard.press('Escape');
      await expect.poll(isOpen, { timeout: 10_000 }).toBe(false);
    });
  });

  it('dark mode: follows the system, the toggle switches it, and the choice survives a reload', async () => {
    const { page, close } = await openPage();
    try {
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.goto(`${base}/docs/quickstart`);
      const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(await background()).toBe('rgb(13, 17, 23)');
      const toggle = page.locator('[data-theme-toggle]');
      expect(await toggle.getAttribute('aria-pressed')).toBe('true');
      await toggle.click();
      expect(await background()).toBe('rgb(255, 255, 255)');
      expect(await toggle.getAttribute('aria-pressed')).toBe('false');
      await page.reload();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
      expect(await background()).toBe('rgb(255, 255, 255)');
    } finally {
      await close();
    }
  });

  it('390 px: the sidebar hides behind the menu button, which opens it', async () => {
    await withPage(
      '/docs/quickstart',
      async (page) => {
        const sidebar = page.locator('.docs-sidebar');
        expect(await sidebar.isVisible()).toBe(false);
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth).toBeLessThanOrEqual(390);
        await page.locator('[data-menu-toggle]').click();
        expect(await sidebar.isVisible()).toBe(true);
        await sidebar.locator('a[href="/docs/mcp"]').click();
        await page.waitForURL(`${base}/docs/mcp`);
      },
      { width: 390, height: 844 },
    );
  });

  it('code blocks get a copy button that copies the code', async () => {
    await withPage('/docs/quickstart', async (page) => {
      await page
        .context()
        .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
      const frame = page.locator('.docs-main .code-frame').first();
      await frame.locator('.code-copy').click();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toBe((await frame.locator('pre code').innerText()).replace(/\n$/, ''));
    });
  });

  it('API reference: tabs switch between curl, TypeScript and Python', async () => {
    await withPage('/docs/reference/memory/query-memory', async (page) => {
      const tabs = page.locator('#request-example-tab-0').locator('..').locator('[role="tab"]');
      expect((await tabs.allTextContents()).map((t) => t.trim())).toEqual([
        'curl',
        'TypeScript',
        'Python',
      ]);
      await tabs.nth(2).click();
      expect(await page.locator('#request-example-panel-2').isVisible()).toBe(true);
      expect(await page.locator('#request-example-panel-0').isVisible()).toBe(false);
      expect(await page.locator('#request-example-panel-2').innerText()).toContain(
        'memory.recall(',
      );
    });
  });

  // Beside the audited pages: the 404 (search box, suggestions) and a Learn lesson (course nav).
  for (const path of [
    ...AUDITED,
    '/docs/quickstrat',
    '/learn/memory-basics/foundations/contexts-and-facts',
  ]) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`axe-core: no moderate, serious or critical violation on ${path} (${scheme})`, async () => {
        const { page, close } = await openPage();
        try {
          await page.emulateMedia({ colorScheme: scheme });
          await page.goto(`${base}${path}`);
          await afterFirstIdle(page);
          // Evaluated over the DevTools protocol, so a Content-Security-Policy does not block it.
          await page.evaluate(axe.source);
          const results = await page.evaluate(() =>
            (window as unknown as { axe: typeof axe }).axe.run(document, {
              runOnly: {
                type: 'tag',
                values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
              },
            }),
          );
          const bad = results.violations
            .filter((v) => v.impact !== 'minor')
            .map(
              (v) =>
                `${v.id}: ${v.nodes
                  .map((n) => n.target.join(' '))
                  .slice(0, 3)
                  .join(', ')}`,
            );
          expect(bad).toEqual([]);
        } finally {
          await close();
        }
      });
    }
  }
});
