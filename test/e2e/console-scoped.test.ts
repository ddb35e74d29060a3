import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { withConsole } from '../support/console-browser.ts';
import { seedConsole, type ConsoleSeed } from '../support/console-seed.ts';

/**
 * A key scoped to one team sees nothing of another team's memory anywhere in the console
 * (issue 41, "done when"): every view is opened with the `team:eng` agent key, made to show what
 * it can, and its whole text checked for the words only `team:sales` memory holds. Each view also
 * shows something of `team:eng`, so an empty page cannot pass for an isolated one.
 */
const base = inject('baseUrl');
const root = inject('bootstrapKey');
let seed: ConsoleSeed;

beforeAll(async () => {
  seed = await seedConsole(base, root, `console-scoped-${Date.now()}`);
});

async function settled(page: Page): Promise<void> {
  await expect
    .poll(() => page.locator('#console-status').textContent(), { timeout: 20_000 })
    .not.toBe('');
}

/**
 * Everything the view shows (the live region is left out: it repeats what the reader typed, and
 * the test types the sales words on purpose).
 */
async function expectNoSales(page: Page): Promise<void> {
  const text = (await page.locator('header, #console-view').allInnerTexts()).join('\n');
  for (const word of seed.salesWords)
    expect(text.toLowerCase(), word).not.toContain(word.toLowerCase());
}

const eng = () => ({ key: seed.engKey, contextId: seed.contextId });

describe('a key scoped to team:eng in the console', () => {
  it('facts: lists and searches only team:eng, in every mode', async () => {
    await withConsole(base, '/console/facts', eng(), async (page) => {
      await settled(page);
      await expect.poll(() => page.locator('#fact-rows').innerText()).toContain('Alice');
      await expectNoSales(page);
      for (const mode of ['bm25', 'vector', 'hybrid', 'hybrid_graph']) {
        await page.getByLabel('Search').fill('Initech Zanzibar deal Carol Paris');
        await page.getByLabel('Mode').selectOption(mode);
        await page.getByRole('button', { name: 'Search' }).click();
        await expect
          .poll(() => page.locator('#console-status').textContent(), { timeout: 20_000 })
          .toContain(`in ${mode}`);
        await expectNoSales(page);
      }
    });
  });

  it('query playground: four modes and the context block hold nothing of team:sales', async () => {
    await withConsole(base, '/console/query', eng(), async (page) => {
      await page.getByLabel('Question').fill('What did Carol agree with Initech in Paris?');
      await page.getByRole('button', { name: 'Ask in four modes' }).click();
      await expect.poll(() => page.locator('#modes section').count(), { timeout: 20_000 }).toBe(4);
      expect(await page.locator('#block').isVisible()).toBe(true);
      await expectNoSales(page);
    });
  });

  it('entities: neither the names nor the walk reach team:sales', async () => {
    await withConsole(base, '/console/entities', eng(), async (page) => {
      await settled(page);
      await expect
        .poll(() => page.locator('#entity-graph').textContent(), { timeout: 20_000 })
        .toMatch(/alice/i);
      await page.getByLabel(/walk of a question/).fill('Who is Carol at Initech?');
      await page.getByRole('button', { name: 'Draw walk' }).click();
      await expect
        .poll(() => page.locator('#console-status').textContent(), { timeout: 20_000 })
        .toMatch(/graph arm|Ran as/);
      expect(await page.locator('#entity-graph').textContent()).not.toMatch(/carol|initech/i);
      await expectNoSales(page);
    });
  });

  it('sessions: the sales session is neither listed nor opened by id', async () => {
    await withConsole(base, '/console/sessions#call-sales', eng(), async (page) => {
      await expect
        .poll(() => page.locator('#console-status').getAttribute('data-tone'), { timeout: 20_000 })
        .toBe('error');
      expect(await page.locator('#session-list').innerText()).toContain('standup-eng');
      expect(await page.locator('#chat').isVisible()).toBe(false);
      await expectNoSales(page);
    });
  });

  it('documents: the sales document is not listed', async () => {
    await withConsole(base, '/console/documents', eng(), async (page) => {
      await settled(page);
      expect(await page.locator('#console-status').textContent()).toContain('0 document(s)');
      await expectNoSales(page);
    });
  });

  it('sign-in: whoami shows its team:eng grants and no other team', async () => {
    await withConsole(base, '/console', null, async (page) => {
      await page.getByLabel('API key').fill(seed.engKey);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect
        .poll(() => page.locator('#key-facts').textContent(), { timeout: 15_000 })
        .toContain('team:eng');
      expect(await page.locator('#key-facts').textContent()).not.toContain('team:sales');
      await expectNoSales(page);
    });
  });

  it('management views refuse an agent key before asking the API anything', async () => {
    for (const path of ['/console/contexts', '/console/keys', '/console/migrations']) {
      await withConsole(base, path, eng(), async (page) => {
        await settled(page);
        expect(await page.locator('#console-status').textContent()).toMatch(/management key/);
        expect(await page.locator('#console-view').isVisible()).toBe(false);
        await expectNoSales(page);
      });
    }
  });
});
