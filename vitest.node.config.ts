import { defineConfig } from 'vitest/config';

// Tests that run in Node, as two projects: `unit` (src/ and sdk/js units, the built output in
// dist/) needs no server; `e2e` (end-to-end and browser suites) shares one real `wrangler dev`,
// started by its global setup only when an e2e file is part of the run.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // One wrangler dev and one Chromium at a time on a 2-core machine.
    fileParallelism: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'src/**/*.test.ts',
            'test/build/**/*.test.ts',
            'test/fixtures/**/*.test.ts',
            'sdk/js/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // Every browser test launches its own Chromium (one page per process), which on a
          // loaded 2-core machine can take several seconds by itself: a limit, not a speed claim.
          testTimeout: 60_000,
          globalSetup: ['./test/e2e/global-setup.ts'],
        },
      },
    ],
  },
});
