import { beforeAll, describe, expect, inject, it } from 'vitest';
import { openPage } from '../support/chromium.ts';
import { withConsole } from '../support/console-browser.ts';
import { seedConsole, type ConsoleSeed } from '../support/console-seed.ts';

/**
 * The memory console's "done when" (issue 41), each step in Chromium against `wrangler dev`:
 * sign in with the management key, find a fact, see its history, ask a question in four modes
 * and see why the top result ranked first. Then edit and forget, which keep history and remove.
 */
const base = inject('baseUrl');
const root = inject('bootstrapKey');
let seed: ConsoleSeed;

beforeAll(async () => {
  seed = await seedConsole(base, root, `console-main-${Date.now()}`);
});

describe('memory console: the first visit', () => {
  it('signs in with the management key, keeps it in sessionStorage only, and shows the Context', async () => {
    const { page, close } = await openPage();
    try {
      await page.goto(`${base}/console`);
      await page.getByLabel('API key').fill(root);
      await page.getByLabel(/Context id/).fill(seed.contextId);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      const body = page.locator('#overview-body');
      await expect.poll(() => body.textContent(), { timeout: 15_000 }).toContain(seed.contextId);
      const overview = (await body.textContent()) ?? '';
      expect(overview).toMatch(/Facts\s*\d+/);
      expect(await page.locator('#console-who').textContent()).toContain('management key');
      // What the key may do, as GET /api/v1/whoami told the sign-in.
      const facts = (await page.locator('#key-facts').textContent()) ?? '';
      expect(facts).toContain('every Context (root management key)');
      expect(facts).toMatch(/May read\s*\*/);
      expect(await page.evaluate(() => sessionStorage.getItem('engram.console.key'))).toBe(root);
      expect(await page.evaluate(() => document.cookie)).toBe('');
      expect(page.url()).not.toContain(root);
      // A view opened from the navigation reads with the same key.
      await page.locator('.console-nav').getByRole('link', { name: 'Facts' }).click();
      await expect
        .poll(() => page.locator('#fact-rows tr').count(), { timeout: 15_000 })
        .toBeGreaterThan(1);
      // Signing out forgets the key and sends the next view back to sign in.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${base}/console`);
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
      await page.goto(`${base}/console/facts`);
      await page.waitForURL(`${base}/console`);
    } finally {
      await close();
    }
  });

  it('signs an agent key in without a Context id: whoami names its Context and grants', async () => {
    await withConsole(base, '/console', null, async (page) => {
      await page.getByLabel('API key').fill(seed.engKey);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      const body = page.locator('#overview-body');
      await expect.poll(() => body.textContent(), { timeout: 15_000 }).toContain(seed.contextId);
      const facts = (await page.locator('#key-facts').textContent()) ?? '';
      expect(facts).toContain('(agent)');
      expect(facts).toMatch(/May read\s*team:eng/);
      expect(facts).not.toContain('every Context');
      expect(await page.locator('#console-who').textContent()).toContain(
        `agent key (${seed.contextId}-eng-bot) · ${seed.contextId}`,
      );
      expect(await page.evaluate(() => sessionStorage.getItem('engram.console.context'))).toBe(
        seed.contextId,
      );
    });
  });

  it('refuses a wrong key and keeps nothing', async () => {
    await withConsole(base, '/console', null, async (page) => {
      await page.getByLabel('API key').fill('mem_management_not-a-real-key-000000');
      await page.getByLabel(/Context id/).fill(seed.contextId);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect
        .poll(() => page.locator('#console-status').getAttribute('data-tone'), { timeout: 15_000 })
        .toBe('error');
      expect(await page.locator('#console-status').textContent()).toMatch(/unauthori[sz]ed/i);
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    });
  });

  it('finds a fact by search and shows its scopes, valid_from and source', async () => {
    const session = { key: root, contextId: seed.contextId };
    await withConsole(base, '/console/facts', session, async (page) => {
      await page.getByLabel('Search').fill('Who leads the Platform team?');
      await page.getByLabel('Mode').selectOption('bm25');
      await page.getByRole('button', { name: 'Search' }).click();
      const row = page.locator(`#fact-rows tr[data-fact-id="${seed.aliceId}"]`);
      await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
      const text = (await row.textContent()) ?? '';
      expect(text).toContain('Alice leads the Platform team in Munich');
      expect(text).toContain('team:eng');
      expect(text).toContain('written directly');
      expect(await row.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
      // The old version is history: left out unless asked for.
      expect(await page.locator(`tr[data-fact-id="${seed.aliceOldId}"]`).count()).toBe(0);
    });
  });

  it('shows a fact’s history as a timeline, oldest first', async () => {
    const session = { key: root, contextId: seed.contextId };
    await withConsole(base, '/console/facts', session, async (page) => {
      const row = page.locator(`#fact-rows tr[data-fact-id="${seed.aliceId}"]`);
      await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
      await row.getByRole('button', { name: /History/ }).click();
      const versions = page.locator('#fact-detail .timeline li');
      await expect.poll(() => versions.count(), { timeout: 15_000 }).toBe(2);
      expect(await versions.nth(0).textContent()).toContain('in Berlin');
      expect(await versions.nth(0).textContent()).toContain('until');
      expect(await versions.nth(1).textContent()).toContain('in Munich');
      expect(await versions.nth(1).getAttribute('aria-current')).toBe('true');
      // Focus moves to the history so a keyboard user lands on it.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('history-title');
    });
  });

  it('asks one question in four modes and says why the top result ranked first', async () => {
    const session = { key: root, contextId: seed.contextId };
    await withConsole(base, '/console/query', session, async (page) => {
      await page.getByLabel('Question').fill('Where is the Platform team led from?');
      await page.getByRole('button', { name: 'Ask in four modes' }).click();
      const why = page.locator('#why-reasons li');
      await expect.poll(() => why.count(), { timeout: 20_000 }).toBeGreaterThan(3);
      for (const mode of ['bm25', 'vector', 'hybrid', 'hybrid_graph']) {
        const column = page.locator(`#modes section[data-mode="${mode}"]`);
        expect(await column.locator('li[data-id]').count(), mode).toBeGreaterThan(0);
        expect(await column.textContent(), mode).toMatch(/score \d\.\d{3}/);
      }
      const graphColumn = page.locator('#modes section[data-mode="hybrid_graph"]');
      expect(await graphColumn.textContent()).toMatch(
        /ranks: bm25 (\d+|–) · vector (\d+|–) · graph/,
      );
      // The explanation is about the hybrid_graph list's first result, from its own numbers.
      const topId = await graphColumn.locator('li[data-id]').first().getAttribute('data-id');
      const topText = await graphColumn.locator('li[data-id] > p').first().textContent();
      expect(await page.locator('#why-top').textContent()).toBe(topText);
      const reasons = (await page.locator('#why-reasons').textContent()) ?? '';
      expect(reasons).toMatch(/in hybrid_graph/);
      // The server's own account of the score (explain: true): each arm's part and their sum.
      expect(reasons).toMatch(
        /bm25 arm \(words\): (rank \d+|not in its list), adds \d\.\d{3} \(weight \d\.\d\d\)/,
      );
      expect(reasons).toMatch(/vector arm \(meaning\): .*adds \d\.\d{3}/);
      expect(reasons).toMatch(/Fused score \d\.\d{3} \(the sum of the arms\)/);
      expect(await graphColumn.textContent()).toMatch(/fused \d\.\d{3} = bm25 \+\d\.\d{3}/);
      expect(reasons).toMatch(/Other modes: bm25 /);
      expect(reasons).toMatch(/POST \/context/);
      expect(topId).not.toBeNull();
      // The block POST /context returns for the same question is shown beside it.
      expect(await page.locator('#block pre').textContent()).not.toBe('');
    });
  });

  it('edits a fact into a new version and forgets another', async () => {
    const session = { key: root, contextId: seed.contextId };
    await withConsole(base, '/console/facts', session, async (page) => {
      page.on('dialog', (d) => void d.accept());
      const bob = page.locator('#fact-rows tr', { hasText: 'Bob deploys' });
      await expect.poll(() => bob.count(), { timeout: 15_000 }).toBe(1);
      await bob.getByRole('button', { name: /Edit/ }).click();
      await page.getByLabel('New text').fill('Bob deploys the Platform services every Thursday');
      await page.getByRole('button', { name: 'Save new version' }).click();
      const edited = page.locator('#fact-rows tr', { hasText: 'every Thursday' });
      await expect.poll(() => edited.count(), { timeout: 15_000 }).toBe(1);
      expect(await page.locator('#fact-rows tr', { hasText: 'every Friday' }).count()).toBe(0);
      await edited.getByRole('button', { name: /History/ }).click();
      await expect
        .poll(() => page.locator('#fact-detail .timeline li').count(), { timeout: 15_000 })
        .toBe(2);

      const postgres = page.locator('#fact-rows tr', { hasText: 'Postgres' });
      await postgres.getByRole('button', { name: /Forget/ }).click();
      await expect.poll(() => postgres.count(), { timeout: 15_000 }).toBe(0);
    });
    const res = await fetch(`${base}/api/v1/${seed.contextId}/query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${root}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'billing data Postgres', mode: 'bm25' }),
    });
    const body = (await res.json()) as { results: { content: string }[] };
    expect(body.results.map((r) => r.content).join(' ')).not.toContain('Postgres');
  });
});
