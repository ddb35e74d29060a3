import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

/**
 * The Vitest config of the suites that run inside workerd against the real bindings declared in
 * wrangler.toml, with `vars` laid over them and the test files `include` names. The site must be
 * built first (`npm run build`): the ASSETS binding serves dist/.
 */
export async function workersConfig(
  include: string[],
  vars: Record<string, string> = {},
): Promise<ReturnType<typeof defineConfig>> {
  const migrations = await readD1Migrations('./migrations');
  return defineConfig({
    plugins: [
      cloudflareTest({
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          // Large prebuilt bundles are loaded by workerd straight from disk instead of through
          // Vitest's transform: the pool sends every transformed module a test file imports in
          // one WebSocket message, and pdf.js (1.6 MB, plus its source map) pushed that message
          // past workerd's 32 MiB limit, crashing every test file after the first PDF test.
          modulesRules: [
            {
              type: 'ESModule',
              include: ['**/unpdf/dist/pdfjs.mjs'],
            },
          ],
          compatibilityFlags: ['nodejs_compat', 'increase_websocket_message_size', 'experimental'],
          bindings: {
            MEMORY_BOOTSTRAP_KEY: 'mem_management_bootstrap_for_tests_only_0000000000',
            TEST_MIGRATIONS: migrations,
            ...vars,
          },
        },
      }),
    ],
    test: {
      include,
      setupFiles: ['./test/workers/apply-migrations.ts', './test/workers/load-tables.ts'],
    },
  });
}
