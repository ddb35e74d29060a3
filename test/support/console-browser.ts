import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { openPage } from './chromium.ts';

/**
 * Opens a console page in its own Chromium, already signed in (the key put in `sessionStorage`
 * before the page's scripts run, exactly where the sign-in form keeps it), and fails the test on
 * any Content-Security-Policy refusal or page error it saw.
 */
export async function withConsole(
  base: string,
  path: string,
  session: { key: string; contextId: string | null } | null,
  run: (page: Page) => Promise<void>,
  width = 1280,
): Promise<void> {
  const { page, close } = await openPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused/i.test(m.text())) {
      problems.push(m.text());
    }
  });
  page.on('pageerror', (e) => problems.push(e.message));
  try {
    await page.setViewportSize({ width, height: 900 });
    if (session !== null) {
      await page.addInitScript((s) => {
        sessionStorage.setItem('engram.console.key', s.key);
        if (s.contextId !== null) {
          sessionStorage.setItem('engram.console.context', s.contextId);
        }
      }, session);
    }
    const res = await page.goto(`${base}${path}`);
    expect(res?.status()).toBe(200);
    await run(page);
    expect(problems).toEqual([]);
  } finally {
    await close();
  }
}

/** Waits for the live region to report something other than "working". */
export async function statusText(page: Page): Promise<string> {
  return (await page.locator('#console-status').textContent()) ?? '';
}
