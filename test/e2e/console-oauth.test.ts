import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { withConsole } from '../support/console-browser.ts';
import { seedConsole, type ConsoleSeed } from '../support/console-seed.ts';

/**
 * Sign-in through OAuth (issue 41, item 1): the console registers itself, sends the reader to the
 * consent page, where the `team:eng` key is pasted, and comes back through `/console/callback`
 * to a session that reads exactly what that key may, nothing of `team:sales`. The tokens stay in
 * `sessionStorage`; the code leaves the address bar; an expired token is refreshed once.
 */
const base = inject('baseUrl');
const root = inject('bootstrapKey');
let seed: ConsoleSeed;

beforeAll(async () => {
  seed = await seedConsole(base, root, `console-oauth-${Date.now()}`);
});

/** Everything the console keeps in this tab, by name. */
function stored(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const all: Record<string, string> = {};
    for (let i = 0; i < sessionStorage.length; i++) {
      const name = sessionStorage.key(i) ?? '';
      all[name] = sessionStorage.getItem(name) ?? '';
    }
    return all;
  });
}

/** From the sign-in page through the consent page back to the overview, with `fields` granted. */
async function signInThroughOAuth(page: Page, fields: { read: string; write: string }) {
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url());
  });
  await page.getByRole('button', { name: 'Sign in with OAuth' }).click();
  await page.waitForURL(/\/authorize\?/);
  expect(await page.locator('h1').textContent()).toMatch(/Authorize/);
  expect(await page.locator('main').textContent()).toContain('Engram console');
  await page.locator('#api_key').fill(seed.engKey);
  await page.locator('#read').fill(fields.read);
  await page.locator('#write').fill(fields.write);
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.waitForURL(`${base}/console`, { timeout: 20_000 });
  const body = page.locator('#overview-body');
  await expect.poll(() => body.textContent(), { timeout: 15_000 }).toContain(seed.contextId);
  return visited;
}

describe('console sign-in through OAuth', () => {
  it('consents with a scoped key and reads only what that key may', async () => {
    await withConsole(base, '/console', null, async (page) => {
      const visited = await signInThroughOAuth(page, { read: '*', write: '' });
      // The callback was passed through with a one-time code, and nothing else in any URL.
      const callback = visited.find((u) => u.startsWith(`${base}/console/callback`)) ?? '';
      expect(new URL(callback).searchParams.get('code')).toBeTruthy();
      const kept = await stored(page);
      const token = kept['engram.console.key'] ?? '';
      expect(token).toMatch(/^[^:]+:[^:]+:[^:]+$/);
      for (const url of visited) {
        expect(url).not.toContain(token);
        expect(url).not.toContain(seed.engKey);
      }
      // The key pasted on the consent page is kept nowhere; no cookie of the console's own.
      expect(Object.values(kept).join('\n')).not.toContain(seed.engKey);
      expect(await page.evaluate(() => document.cookie)).toBe('');
      expect(JSON.parse(kept['engram.console.oauth'] ?? '{}')).toMatchObject({
        clientId: expect.any(String),
        refreshToken: expect.any(String),
      });
      expect(page.url()).toBe(`${base}/console`);
      expect(await page.locator('#console-who').textContent()).toContain(
        `agent via OAuth (${seed.contextId}-eng-bot) · ${seed.contextId}`,
      );
      const facts = (await page.locator('#key-facts').textContent()) ?? '';
      expect(facts).toContain('OAuth token from');
      expect(facts).toMatch(/May read\s*team:eng/);
      expect(facts).toMatch(/May write\s*nothing/);

      // The facts view, through the navigation, with the token.
      await page.locator('.console-nav').getByRole('link', { name: 'Facts' }).click();
      await expect
        .poll(() => page.locator('#fact-rows').innerText(), { timeout: 15_000 })
        .toContain('Alice');
      const text = (await page.locator('header, #console-view').allInnerTexts()).join('\n');
      for (const word of seed.salesWords) expect(text, word).not.toContain(word);
      // Asking for team:sales by its own words finds nothing of it either.
      await page.getByLabel('Search').fill('Initech Zanzibar deal Carol Paris');
      await page.getByLabel('Mode').selectOption('bm25');
      await page.getByRole('button', { name: 'Search' }).click();
      await expect
        .poll(() => page.locator('#console-status').textContent(), { timeout: 20_000 })
        .toContain('in bm25');
      const found = (await page.locator('header, #console-view').allInnerTexts()).join('\n');
      for (const word of seed.salesWords) expect(found, word).not.toContain(word);

      // Signing out forgets every token.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${base}/console`);
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    });
  });

  it('refreshes an access token the API refuses, once, and carries on', async () => {
    await withConsole(base, '/console', null, async (page) => {
      await signInThroughOAuth(page, { read: '*', write: '' });
      const before = await stored(page);
      // An access token the server no longer knows, as after its hour: the next call gets 401.
      await page.evaluate(() => sessionStorage.setItem('engram.console.key', 'gone:gone:gone'));
      await page.goto(`${base}/console/facts`);
      await expect
        .poll(() => page.locator('#fact-rows').innerText(), { timeout: 15_000 })
        .toContain('Alice');
      const after = await stored(page);
      expect(after['engram.console.key']).not.toBe('gone:gone:gone');
      expect(after['engram.console.key']).not.toBe(before['engram.console.key']);
      // The refresh token was rotated (the spent one is retired by the server).
      expect(after['engram.console.oauth']).not.toBe(before['engram.console.oauth']);
      // Once refused for good (no refresh token left to use), the console goes back to sign in.
      await page.evaluate(() => {
        sessionStorage.setItem('engram.console.key', 'gone:gone:gone');
        sessionStorage.setItem(
          'engram.console.oauth',
          JSON.stringify({ clientId: 'none', refreshToken: 'gone:gone:gone' }),
        );
      });
      await page.goto(`${base}/console/facts`);
      await page.waitForURL(`${base}/console`, { timeout: 15_000 });
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    });
  });

  it('a callback the tab did not start is refused and keeps nothing', async () => {
    await withConsole(base, '/console/callback?code=stolen&state=forged', null, async (page) => {
      await expect
        .poll(() => page.locator('#console-status').textContent(), { timeout: 15_000 })
        .toContain('not started in this tab');
      expect(new URL(page.url()).search).toBe('');
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
      expect(await page.locator('#callback-retry').isVisible()).toBe(true);
    });
  });
});
