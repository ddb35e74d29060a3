import sparticuz from '@sparticuz/chromium';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * Flags that keep Chromium quiet on a machine without internet: without them it tries Google's
 * hosts at every start (component updates, field trials) and those refused connections show up
 * as noise, or as failed requests in tests that watch for them.
 */
const OFFLINE_ARGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

/**
 * Where the browser comes from: `CHROMIUM_PATH` when a person wants a system browser, otherwise
 * the headless Chromium that `@sparticuz/chromium` ships inside its npm package (unpacked to
 * /tmp on first use, no download), so `npm install && npm test` needs nothing else on the machine.
 */
export async function launchChromium(): Promise<Browser> {
  const systemPath = process.env.CHROMIUM_PATH;
  if (systemPath) {
    return chromium.launch({
      executablePath: systemPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', ...OFFLINE_ARGS],
    });
  }
  return chromium.launch({
    executablePath: await sparticuz.executablePath(),
    args: [...sparticuz.args, ...OFFLINE_ARGS],
    headless: true,
  });
}

/**
 * A page in a browser of its own. The npm Chromium runs `--single-process`, which holds one page
 * per browser process, so every page gets its own browser; closing the page closes both.
 */
export async function openPage(): Promise<{ page: Page; close: () => Promise<void> }> {
  const browser = await launchChromium();
  const page = await browser.newPage();
  return {
    page,
    close: async () => {
      await browser.close();
    },
  };
}

/**
 * Resolves once the work a page queued for after its first paint has run (src/client/
 * scrollable-focus.ts gives sideways-scrolling regions their tab stops then). The page queued
 * its idle callback during load with a 1 s deadline (src/client/after-paint.ts); this one is
 * queued later with a later deadline, so it cannot run first. The deadline matters: on a busy
 * machine headless Chromium can go a long time without an idle period, and an idle callback
 * without one once held an axe test past its 30 s timeout in CI.
 */
export async function afterFirstIdle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        // A page that draws no frame (never painted, or throttled) never runs the rAF callback:
        // a plain timer still ends the wait, after the page's own 1 s deadline has passed.
        setTimeout(resolve, 5000);
        requestAnimationFrame(() => requestIdleCallback(() => resolve(), { timeout: 3000 }));
      }),
  );
}
