import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { afterFirstIdle } from '../support/chromium.ts';
import { withConsole } from '../support/console-browser.ts';
import { documentsReady, seedConsole, type ConsoleSeed } from '../support/console-seed.ts';

/**
 * Every console view against a seeded Context with the root management key: what each one shows
 * and does, with the keyboard where it matters; axe-core finds no violation at all (any impact)
 * in light and dark; at 390 px nothing scrolls sideways; screenshots land beside the site's in
 * test-results/screenshots/.
 */
const base = inject('baseUrl');
const root = inject('bootstrapKey');
const SCREENSHOTS = join('test-results', 'screenshots');
let seed: ConsoleSeed;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  seed = await seedConsole(base, root, `console-views-${Date.now()}`);
  await documentsReady(base, root, seed.contextId);
});

const asRoot = () => ({ key: root, contextId: seed.contextId });

async function settled(page: Page): Promise<void> {
  await expect
    .poll(() => page.locator('#console-status').textContent(), { timeout: 20_000 })
    .not.toBe('');
}

async function violations(page: Page): Promise<string[]> {
  // Evaluated over the DevTools protocol, so the Content-Security-Policy does not block it.
  await page.evaluate(axe.source);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
      },
    }),
  );
  return results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(', ')}`,
  );
}

const VIEWS = [
  'console',
  'facts',
  'query',
  'entities',
  'sessions',
  'documents',
  'contexts',
  'keys',
  'migrations',
];

describe('console views: audits', () => {
  for (const view of VIEWS) {
    const path = view === 'console' ? '/console' : `/console/${view}`;
    it(`${path}: axe finds nothing in light and dark, nor at 390 px, which it fits; screenshots`, async () => {
      await withConsole(
        base,
        path,
        asRoot(),
        async (page) => {
          await settled(page);
          await afterFirstIdle(page);
          if (view === 'query') {
            await page.getByLabel('Question').fill('Where is the Platform team?');
            await page.getByRole('button', { name: 'Ask in four modes' }).click();
            await expect
              .poll(() => page.locator('#why-reasons li').count(), { timeout: 20_000 })
              .toBeGreaterThan(0);
          }
          for (const scheme of ['light', 'dark'] as const) {
            await page.emulateMedia({ colorScheme: scheme });
            expect(await violations(page), scheme).toEqual([]);
          }
          await page.emulateMedia({ colorScheme: 'light' });
          await page.screenshot({
            path: join(SCREENSHOTS, `console-${view}-1280.png`),
            fullPage: true,
          });
          await page.setViewportSize({ width: 390, height: 844 });
          const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
          expect(scrollWidth).toBeLessThanOrEqual(390);
          // At phone width tables scroll sideways: each scrolling region must take the focus.
          expect(await violations(page), '390 px').toEqual([]);
          await page.screenshot({
            path: join(SCREENSHOTS, `console-${view}-390.png`),
            fullPage: true,
          });
        },
        1280,
      );
    });
  }

  it('the sign-in page without a key: axe finds nothing; the form works from the keyboard', async () => {
    await withConsole(base, '/console', null, async (page) => {
      expect(await violations(page)).toEqual([]);
      // Skip link, then the header; the key field is reachable by Tab and Enter submits.
      await page.getByLabel('API key').focus();
      await page.keyboard.type(root);
      await page.keyboard.press('Tab');
      await page.keyboard.type(seed.contextId);
      await page.keyboard.press('Enter');
      await expect
        .poll(() => page.locator('#overview-body').textContent(), { timeout: 15_000 })
        .toContain(seed.contextId);
    });
  });
});

describe('console views: what each one does', () => {
  it('entities: Enter on a focused entity expands it into the facts that name it', async () => {
    await withConsole(base, '/console/entities', asRoot(), async (page) => {
      const alice = page.locator('[data-node="entity:alice"]');
      await expect.poll(() => alice.count(), { timeout: 20_000 }).toBe(1);
      await alice.focus();
      await page.keyboard.press('Enter');
      await expect
        .poll(() => page.locator('#graph-list').innerText(), { timeout: 15_000 })
        .toContain('Alice leads the Platform team in Munich');
      expect(await page.locator('[data-node^="fact:"]').count()).toBeGreaterThan(0);
      expect(await page.locator('#entity-graph line').count()).toBeGreaterThan(0);
      // The walk of a question: results the graph arm ranked are marked.
      await page.getByLabel(/walk of a question/).fill('Where does Alice lead the Platform team?');
      await page.getByRole('button', { name: 'Draw walk' }).click();
      await expect
        .poll(() => page.locator('#entity-graph .walked').count(), { timeout: 15_000 })
        .toBeGreaterThan(0);
    });
  });

  it('sessions: a session opens as a chat of its turns', async () => {
    await withConsole(base, '/console/sessions', asRoot(), async (page) => {
      await page.getByRole('button', { name: 'standup-eng' }).click();
      const turns = page.locator('#chat .chat li');
      await expect.poll(() => turns.count(), { timeout: 15_000 }).toBe(1);
      expect(await turns.first().getAttribute('data-role')).toBe('user');
      expect(await turns.first().textContent()).toContain('Friday deploy');
    });
  });

  it('documents: status, and a preview of the chunks', async () => {
    await withConsole(base, '/console/documents', asRoot(), async (page) => {
      const row = page.locator('#document-rows tr', { hasText: 'initech-terms.txt' });
      await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
      expect(await row.textContent()).toContain('ready');
      await row.getByRole('button', { name: /Chunks/ }).click();
      await expect
        .poll(() => page.locator('#chunks').innerText(), { timeout: 15_000 })
        .toContain('Zanzibar discount');
    });
  });

  it('contexts: listed by the API, with usage, schema and migration state; backups set and turned off; create one; export as NDJSON', async () => {
    // Made outside the console: only GET /api/v1/contexts can tell the view it exists.
    const elsewhere = `${seed.contextId}-listed`;
    const made = await fetch(`${base}/api/v1/contexts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${root}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: elsewhere }),
    });
    expect(made.status).toBe(201);
    await withConsole(base, '/console/contexts', asRoot(), async (page) => {
      const listed = page.locator(`#context-rows tr[data-context-id="${elsewhere}"]`);
      await expect
        .poll(() => page.locator('#context-rows tr').count(), { timeout: 15_000 })
        .toBeGreaterThan(1);
      // Page on until it shows up (ids in order; other suites' Contexts come first).
      for (let i = 0; i < 50 && (await listed.count()) === 0; i++) {
        const more = page.locator('#more-contexts');
        expect(await more.isVisible(), 'the Context is on no page').toBe(true);
        const before = await page.locator('#context-rows tr').count();
        await more.click();
        await expect
          .poll(() => page.locator('#context-rows tr').count(), { timeout: 15_000 })
          .toBeGreaterThan(before);
      }
      expect(await listed.textContent()).toMatch(/0 facts · 0 documents \(0 chunks\)/);
      const row = page.locator(`#context-rows tr[data-context-id="${seed.contextId}"]`);
      await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
      // The seed uploaded a document.
      expect(await row.textContent()).toMatch(/\d+ facts · [1-9]\d* documents \(\d+ chunks\)/);
      expect(await row.textContent()).toMatch(/v\d+ · (up to date|behind)/);
      // Scheduled backups: set in the row's disclosure, read back from the API, turned off.
      const backups = row.locator(`[data-backup="${seed.contextId}"]`);
      expect(await backups.textContent()).toBe('off');
      await row.getByLabel(`Set backups of ${seed.contextId}`).click();
      await row.getByLabel('Every (hours)').fill('12');
      await row.getByLabel('Keep').fill('3');
      await row.getByRole('button', { name: 'Save' }).click();
      await expect
        .poll(() => backups.textContent(), { timeout: 15_000 })
        .toBe('every 12 h, keep 3');
      const stored = await fetch(`${base}/api/v1/contexts/${seed.contextId}`, {
        headers: { authorization: `Bearer ${root}` },
      });
      expect(((await stored.json()) as { backup: unknown }).backup).toEqual({
        every_hours: 12,
        keep: 3,
      });
      await row.getByRole('button', { name: 'Turn off' }).click();
      await expect.poll(() => backups.textContent(), { timeout: 15_000 }).toBe('off');
      const created = `${seed.contextId}-new`;
      await page.getByLabel('New Context id').fill(created);
      await page.getByRole('button', { name: 'Create' }).click();
      await expect
        .poll(() => page.locator(`#context-rows tr[data-context-id="${created}"]`).count(), {
          timeout: 15_000,
        })
        .toBe(1);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        row.getByRole('button', { name: /Export/ }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${seed.contextId}.ndjson`);
      const path = await download.path();
      const { readFile } = await import('node:fs/promises');
      const lines = (await readFile(path, 'utf8')).trim().split('\n');
      expect(lines.length).toBeGreaterThan(2);
      expect(() => lines.map((l) => JSON.parse(l) as unknown)).not.toThrow();
    });
  });

  it('keys: a principal, then a key for it; the secret is shown once and works', async () => {
    await withConsole(base, '/console/keys', asRoot(), async (page) => {
      await page.getByLabel('Display name').fill(`${seed.contextId}-reader`);
      await page.getByRole('button', { name: 'Create principal' }).click();
      await expect
        .poll(() => page.locator('#key-principal').inputValue(), { timeout: 15_000 })
        .toMatch(/^principal_/);
      expect(await page.locator('#key-context').inputValue()).toBe(seed.contextId);
      await page.locator('#new-read').fill('team:eng');
      await page.locator('#new-write').fill('');
      await page.locator('#new-forget').fill('');
      await page.getByRole('button', { name: 'Issue key' }).click();
      const secret = page.locator('#new-key');
      await expect.poll(() => secret.textContent(), { timeout: 15_000 }).toMatch(/^mem_agent_/);
      const key = (await secret.textContent()) ?? '';
      const res = await fetch(`${base}/api/v1/${seed.contextId}/facts`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const body = (await res.json()) as { facts: { scopes: string[] }[] };
      expect(body.facts.length).toBeGreaterThan(0);
      expect(body.facts.every((f) => f.scopes.includes('team:eng'))).toBe(true);
      // The keys list (GET /api/v1/keys) shows the new key by its prefix, never its secret,
      // and the principals list the principal it belongs to.
      const rows = page.locator('#key-rows');
      await expect.poll(() => rows.innerText(), { timeout: 15_000 }).toContain(key.slice(0, 14));
      expect(await rows.innerText()).not.toContain(key);
      expect(await rows.innerText()).toContain('read team:eng');
      expect(await page.locator('#principal-rows').innerText()).toContain(
        `${seed.contextId}-reader`,
      );
      // Revoked from its row: the key stops working.
      page.on('dialog', (d) => void d.accept());
      const row = page.locator('#key-rows tr', { hasText: key.slice(0, 14) });
      await row.getByRole('button', { name: /Revoke/ }).click();
      await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);
      const after = await fetch(`${base}/api/v1/${seed.contextId}/facts`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(after.status).toBe(401);
    });
  });

  it('migrations: the latest schema version, the rollout and the dead-letter queue', async () => {
    await withConsole(base, '/console/migrations', asRoot(), async (page) => {
      await expect
        .poll(() => page.locator('#rollout').textContent(), { timeout: 15_000 })
        .toMatch(/Latest schema version: v\d+/);
      expect(await page.locator('#dlq-rows tr').count()).toBeGreaterThan(0);
    });
  });
});
