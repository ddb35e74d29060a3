import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

// Tests that run inside workerd against the real bindings declared in wrangler.toml.
// The site must be built first (`npm run build`): the ASSETS binding serves dist/.
const migrations = await readD1Migrations('./migrations');

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        bindings: {
          MEMORY_BOOTSTRAP_KEY: 'mem_management_bootstrap_for_tests_only_0000000000',
          TEST_MIGRATIONS: migrations,
        },
      },
    }),
  ],
  test: {
    include: ['functions/**/*.test.ts', 'test/workers/**/*.test.ts'],
    setupFiles: ['./test/workers/apply-migrations.ts'],
  },
});
