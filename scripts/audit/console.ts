/**
 * `npm run audit -- --console`: the console's pages measured as a person signed in sees them
 * (issue 41, requirement 7: Lighthouse ≥ 95 in all four categories on every console page). A
 * fresh `wrangler dev` gets a Context written through the public API as any client would (facts
 * of two teams, one with history, sessions with turns, a processed document), and every
 * Lighthouse and axe-core run opens its page with the bootstrap root key, that Context and the
 * key's whoami answer already in `sessionStorage`, exactly where the sign-in form keeps them.
 */
import type { Page } from 'playwright-core';
import { afterFirstIdle } from '../../test/support/chromium.ts';
import { documentsReady, seedConsole, send } from '../../test/support/console-seed.ts';
import { startDevServer } from '../../test/support/wrangler-dev.ts';
import { measure, saveReport, type PageResult } from './measure.ts';
import { signInScript } from './sign-in-script.ts';

/** The standup session gets a few more turns than the browser tests' seed gives it. */
const MORE_TURNS = [
  ['assistant', 'Noted: the Friday deploy of the Platform services went fine.'],
  ['user', 'Alice asked to move the next deploy to Thursday because of the Munich offsite.'],
  ['assistant', 'Noted: next deploy on Thursday; Alice is at the Munich offsite on Friday.'],
] as const;

/** Seeds the Context the console opens and returns the script that signs a tab in to it. */
async function seed(base: string, root: string): Promise<string> {
  const { contextId } = await seedConsole(base, root, `console-audit-${Date.now()}`);
  for (const [role, content] of MORE_TURNS) {
    await send(base, root, 'POST', `/api/v1/${contextId}/sessions/standup-eng/turns`, {
      role,
      content,
    });
  }
  await documentsReady(base, root, contextId);
  const who = await send(base, root, 'GET', '/api/v1/whoami');
  return signInScript({ origin: new URL(base).origin, key: root, contextId, who });
}

/**
 * Before axe judges a view: its first answer shown (the live status region says something),
 * then the page's own after-paint work. A view that never reports is judged as it stands.
 */
async function viewSettled(page: Page): Promise<void> {
  try {
    await page.waitForFunction(
      () => (document.getElementById('console-status')?.textContent ?? '') !== '',
      undefined,
      { timeout: 20_000 },
    );
  } catch {
    console.log(`audit ${new URL(page.url()).pathname}: no status within 20 s, axe runs anyway`);
  }
  await afterFirstIdle(page);
}

export async function measureConsole(
  pages: readonly string[],
  runs: number,
): Promise<PageResult[]> {
  const server = await startDevServer();
  try {
    const initScript = await seed(server.url, server.bootstrapKey);
    return await measure(server.url, {
      pages,
      runs,
      initScript,
      ready: viewSettled,
      onRun: saveReport,
    });
  } finally {
    await server.stop();
  }
}
