import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { afterFirstIdle, openPage } from '../support/chromium.ts';

/**
 * The docs at 390 and 1280 px, light and dark, in Chromium against `wrangler dev`: the phone
 * menu (opens under the header, scrolls by itself, closes with Esc and its button), nothing
 * overlapping, primary buttons' contrast at both ends of their gradient, the try-it panel.
 */
const base = inject('baseUrl');
const bootstrapKey = inject('bootstrapKey');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

async function withPage(
  path: string,
  viewport: { width: number; height: number },
  scheme: 'light' | 'dark',
  run: (page: Page) => Promise<void>,
): Promise<void> {
  const { page, close } = await openPage();
  try {
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`${base}${path}`);
    await afterFirstIdle(page);
    await run(page);
  } finally {
    await close();
  }
}

/** The element at the centre of `selector`'s box is it (or inside it): nothing covers it. */
async function uncovered(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return false;
    const box = el.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return top !== null && (top === el || el.contains(top));
  }, selector);
}

describe('phone menu at 390 px', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`opens under the header, scrolls by itself, closes with Esc and its button (${scheme})`, async () => {
      await withPage('/docs/reference/memory/query-memory', PHONE, scheme, async (page) => {
        const toggle = page.locator('[data-menu-toggle]');
        const sidebar = page.locator('#docs-sidebar');
        expect(await sidebar.isVisible()).toBe(false);
        await toggle.click();
        expect(await sidebar.isVisible()).toBe(true);
        expect(await toggle.getAttribute('aria-expanded')).toBe('true');
        // The header and its close button stay on top and reachable.
        expect(await uncovered(page, '[data-menu-toggle]')).toBe(true);
        const header = await page.locator('.site-header').boundingBox();
        const panel = await sidebar.boundingBox();
        expect((panel?.y ?? 0) + 0.5).toBeGreaterThanOrEqual(
          (header?.y ?? 0) + (header?.height ?? 0),
        );
        expect((panel?.y ?? 0) + (panel?.height ?? 0)).toBeLessThanOrEqual(PHONE.height + 0.5);
        // The current page is in view, and the sidebar scrolls while the page behind does not.
        expect(await uncovered(page, '#docs-sidebar a[aria-current="page"]')).toBe(true);
        const before = await page.evaluate(() => ({
          page: window.scrollY,
          sidebar: document.querySelector('#docs-sidebar')?.scrollTop ?? 0,
          room:
            (document.querySelector('#docs-sidebar')?.scrollHeight ?? 0) -
            (document.querySelector('#docs-sidebar')?.clientHeight ?? 0),
        }));
        expect(before.room).toBeGreaterThan(0);
        await page.mouse.move(195, (panel?.y ?? 0) + 200);
        await page.mouse.wheel(0, 600);
        await expect
          .poll(() => page.evaluate(() => document.querySelector('#docs-sidebar')?.scrollTop ?? 0))
          .not.toBe(before.sidebar);
        expect(await page.evaluate(() => window.scrollY)).toBe(before.page);
        // A link far below the fold can be reached.
        const last = sidebar.locator('details[open] a').last();
        await last.scrollIntoViewIfNeeded();
        expect(await last.isVisible()).toBe(true);
        await page.keyboard.press('Escape');
        expect(await sidebar.isVisible()).toBe(false);
        expect(await toggle.getAttribute('aria-expanded')).toBe('false');
        await toggle.click();
        expect(await sidebar.isVisible()).toBe(true);
        await toggle.click();
        expect(await sidebar.isVisible()).toBe(false);
      });
    });
  }
});

describe('layout at 390 and 1280 px, light and dark', () => {
  for (const [name, viewport] of [
    ['390', PHONE],
    ['1280', DESKTOP],
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`${name} px ${scheme}: no sideways scroll, no overlap, tables scroll in their box, copy button clear of the code`, async () => {
        await withPage('/docs/reference/memory/query-memory', viewport, scheme, async (page) => {
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth),
          ).toBeLessThanOrEqual(viewport.width);
          // Header controls, breadcrumbs and the agent menu do not overlap one another.
          const overlaps = await page.evaluate(() => {
            const boxes = [
              ...document.querySelectorAll(
                '.header-bar > .brand, .header-bar > .menu-button, .header-tools > *, .breadcrumbs, .agent-menu',
              ),
            ]
              .map((el) => ({ el: el.className, r: el.getBoundingClientRect() }))
              .filter((b) => b.r.width > 0 && b.r.height > 0);
            const hits: string[] = [];
            boxes.forEach((a, i) =>
              boxes.slice(i + 1).forEach((b) => {
                const x = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
                const y = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
                if (x > 1 && y > 1) hits.push(`${a.el} / ${b.el}`);
              }),
            );
            return hits;
          });
          expect(overlaps).toEqual([]);
          const table = await page.evaluate(() => {
            const t = document.querySelector('main table');
            const main = document.querySelector('main')?.getBoundingClientRect();
            const r = t?.getBoundingClientRect();
            return { right: r?.right ?? 0, mainRight: main?.right ?? 0 };
          });
          expect(table.right).toBeLessThanOrEqual(table.mainRight + 1);
          // The copy button sits in the strip above the first line of code, not on it.
          const clear = await page.evaluate(() => {
            const frame = document.querySelector('.docs-main .code-frame');
            const button = frame?.querySelector('.code-copy')?.getBoundingClientRect();
            const code = frame?.querySelector('pre code');
            const range = document.createRange();
            if (code?.firstChild) range.selectNodeContents(code);
            const firstLine = range.getClientRects()[0];
            return button && firstLine ? button.bottom <= firstLine.top + 1 : false;
          });
          expect(clear).toBe(true);
        });
      });
    }
  }
});

/** WCAG contrast of two `rgb(r, g, b)` colours. */
function contrast(a: number[], b: number[]): number {
  const lum = (c: number[]) => {
    const [r = 0, g = 0, bl = 0] = c.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

describe('primary buttons keep 4.5:1 at both ends of their gradient', () => {
  for (const path of ['/', '/pricing', '/docs/reference/memory/get-fact']) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`${path} (${scheme})`, async () => {
        await withPage(path, DESKTOP, scheme, async (page) => {
          const buttons = await page.evaluate(() =>
            [...document.querySelectorAll('.button.gradient')].map((el) => {
              const style = getComputedStyle(el);
              const stops = [...style.backgroundImage.matchAll(/rgba?\(([^)]+)\)/g)].map((m) =>
                (m[1] ?? '').split(',').map((v) => Number(v.trim())),
              );
              const ink = (/rgba?\(([^)]+)\)/.exec(style.color)?.[1] ?? '')
                .split(',')
                .map((v) => Number(v.trim()));
              return { text: el.textContent?.trim() ?? '', stops, ink };
            }),
          );
          expect(buttons.length).toBeGreaterThan(0);
          for (const b of buttons) {
            expect(b.stops.length, b.text).toBe(2);
            for (const stop of b.stops) {
              expect(contrast(stop, b.ink), `${b.text}: ${stop.join(',')}`).toBeGreaterThanOrEqual(
                4.5,
              );
            }
          }
        });
      });
    }
  }
});

describe('try-it panel', () => {
  it('sends the example request to the same origin and shows status, headers and body', async () => {
    await withPage('/docs/reference/memory/get-migrations', DESKTOP, 'light', async (page) => {
      const panel = page.locator('[data-try-it]');
      expect(await panel.locator('[data-try-base]').inputValue()).toBe(base);
      await panel.locator('[data-try-key]').fill(bootstrapKey);
      await panel.locator('button[type="submit"]').click();
      await expect
        .poll(() => panel.locator('[data-try-status]').textContent(), { timeout: 15_000 })
        .toMatch(/^200/);
      expect(await panel.locator('[data-try-headers]').textContent()).toContain(
        'content-type: application/json',
      );
      expect(JSON.parse((await panel.locator('[data-try-body]').textContent()) ?? '')).toBeTypeOf(
        'object',
      );
      // The key stays in this tab's sessionStorage; it is not in localStorage.
      expect(await page.evaluate(() => sessionStorage.getItem('engram:try-it:key'))).toBe(
        bootstrapKey,
      );
      expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(bootstrapKey);
    });
  });

  it('fills path parameters and the JSON body from the example, and shows a 4xx as it is', async () => {
    await withPage('/docs/reference/memory/query-memory', DESKTOP, 'dark', async (page) => {
      const panel = page.locator('[data-try-it]');
      expect(await panel.locator('input[name="path:context_id"]').inputValue()).toBe('acme');
      expect(JSON.parse(await panel.locator('textarea[name="body"]').inputValue())).toMatchObject({
        mode: 'hybrid_graph',
      });
      await panel.locator('button[type="submit"]').click();
      await expect
        .poll(() => panel.locator('[data-try-status]').textContent(), { timeout: 15_000 })
        .toMatch(/^401/);
      expect(await panel.locator('[data-try-body]').textContent()).toContain('unauthorized');
    });
  });
});
